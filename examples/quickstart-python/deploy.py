"""Deploys the Python quickstart (quickstart.py) with Python's Automation API,
which runs the program itself (no Python language host needed):

    python deploy.py up|destroy

`npm run demo -- --python` runs it with the stack's backend, home and
passphrase in PULUMI_BACKEND_URL, PULUMI_HOME and PULUMI_CONFIG_PASSPHRASE,
a work folder for the Automation API in AICP_DEMO_WORKDIR, and the platform's
address in AICP_DEMO_URL; it prints the stack outputs
as JSON after an up.
"""
import json
import os
import sys

from pulumi import automation as auto

from quickstart import quickstart


def main(action: str) -> None:
    # The Automation API writes the project's settings (Pulumi.yaml) into its work folder: the demo's state, never this one.
    work_dir = os.environ["AICP_DEMO_WORKDIR"]
    os.makedirs(work_dir, exist_ok=True)
    workspace = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=os.environ["PULUMI_HOME"],
        project_settings=auto.ProjectSettings(name="aicp-quickstart-python", runtime="python", backend=auto.ProjectBackend(url=os.environ["PULUMI_BACKEND_URL"])),
        env_vars={"PULUMI_CONFIG_PASSPHRASE": os.environ["PULUMI_CONFIG_PASSPHRASE"]},
    )
    stack = auto.create_or_select_stack(stack_name="dev", project_name="aicp-quickstart-python", program=quickstart, opts=workspace)
    stack.set_all_config({
        "aicp:baseUrl": auto.ConfigValue(os.environ["AICP_DEMO_URL"]),
        "aicp:accessKeyId": auto.ConfigValue("AKIDEMULATOR"),
        "aicp:secretAccessKey": auto.ConfigValue("emulator-secret", secret=True),
        "aicp:userId": auto.ConfigValue("usr-emulator"),
        "aicp:zone": auto.ConfigValue("xb3"),
    })
    if action == "destroy":
        stack.destroy(on_output=print)
        return
    up = stack.up(on_output=print)
    print("\n==> Stack outputs")
    print(json.dumps({k: v.value for k, v in up.outputs.items()}, indent=2))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "up")
