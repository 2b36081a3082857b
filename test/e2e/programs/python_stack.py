"""A Python program on the generated SDK (sdks/python), driven by Python's
Automation API (an inline program: no Python language host needed).

    python python_stack.py up|preview|refresh|destroy
    python python_stack.py preview-file <program.py>   (a preview of another program, e.g. the README's)

The stack is `ci` in the backend PULUMI_BACKEND_URL, of the project the
working directory's Pulumi.yaml describes when there is one (a test writes one
to name a plugin to run from a folder, `plugins.providers`, which the
Automation API's project settings cannot hold), else of project aicp-py (the
Automation API writes its Pulumi.yaml), with PULUMI_HOME holding the installed
provider plugin. The program reads
GROUP_DESCRIPTION and STOP_TIME, so a test can change it between runs. The
last line printed is `RESULT <json>`: the outputs and the resource changes.
"""
import json
import os
import sys

import pulumi
import pulumi_aicp as aicp
from pulumi import automation as auto


def program() -> None:
    group = aicp.ResourceGroup("team", sku_id="sku-1", pod_types=["job", "instance"], description=os.environ.get("GROUP_DESCRIPTION", "first"))
    notebook = aicp.Notebook(
        "nb",
        charge_mode="elastic",
        duration=3600,
        image="jupyter:1",
        image_type="official",
        # An enum of the schema (the plain string "jupyter" works as well).
        server_type=aicp.NotebookServerType.JUPYTER,
        replica_specs=aicp.ReplicaSpecsArgs(specs="sku-1", custom_cpu=2),
        stop_time=os.environ.get("STOP_TIME") or None,
    )
    templates = aicp.get_resource_templates(limit=3)
    pods = aicp.get_training_pods_output(endpoint="tfjobs", train_name="auto-job")
    metrics = aicp.get_notebook_disk_metrics_output(uuid=notebook.uuid)
    jobs = aicp.get_training_jobs()
    # Read once the group exists: its name is known only then.
    listed = aicp.get_resource_groups_output(search_word=group.name)
    pulumi.export("rgId", group.rg_id)
    pulumi.export("groupName", group.name)
    pulumi.export("uuid", notebook.uuid)
    pulumi.export("status", notebook.status)
    pulumi.export("templates", len(templates.templates))
    pulumi.export("pods", pods.pods.apply(lambda ps: sorted(p.metadata.name for p in ps)))
    pulumi.export("jobs", sorted(job.name for job in jobs.jobs))
    pulumi.export("listedGroups", listed.groups.apply(lambda gs: [g.rg_id for g in gs]))
    pulumi.export("metrics", metrics.metrics.apply(lambda ms: sorted(m.metric_name for m in ms)))


def main(step: str, program_file: str = "") -> None:
    settings = None
    if not os.path.exists("Pulumi.yaml"):
        settings = auto.ProjectSettings(name="aicp-py", runtime="python", backend=auto.ProjectBackend(url=os.environ["PULUMI_BACKEND_URL"]))
    workspace = auto.LocalWorkspaceOptions(
        work_dir=os.getcwd(),
        pulumi_home=os.environ["PULUMI_HOME"],
        project_settings=settings,
        env_vars={"PULUMI_CONFIG_PASSPHRASE": os.environ["PULUMI_CONFIG_PASSPHRASE"]},
    )
    chosen = program
    if step == "preview-file":
        source = open(program_file, encoding="utf-8").read()
        chosen = lambda: exec(compile(source, program_file, "exec"), {"__name__": "__main__"})  # noqa: E731
        step = "preview"
    stack = auto.create_or_select_stack(stack_name="ci", project_name="aicp-py", program=chosen, opts=workspace)
    result: dict = {}
    if step == "up":
        up = stack.up(on_output=print)
        result = {"outputs": {k: v.value for k, v in up.outputs.items()}, "changes": up.summary.resource_changes}
    elif step == "preview":
        preview = stack.preview(on_output=print, diff=True)
        result = {"changes": preview.change_summary}
    elif step == "refresh":
        refresh = stack.refresh(on_output=print)
        result = {"changes": refresh.summary.resource_changes}
    elif step == "destroy":
        destroy = stack.destroy(on_output=print)
        result = {"changes": destroy.summary.resource_changes}
    else:
        raise SystemExit(f"unknown step {step!r}: up, preview, refresh or destroy")
    print("RESULT " + json.dumps(result, default=str))


if __name__ == "__main__":
    main(*sys.argv[1:3])
