"""Quickstart in Python: a resource group, the smallest GPU template, a
notebook on it, and what a team reads back as stack outputs. The same
program as examples/quickstart (TypeScript), on the generated SDK
(sdks/python) and the provider plugin."""
import pulumi
import pulumi_aicp as aicp


def quickstart() -> None:
    config = pulumi.Config("quickstart")
    # Optional: a GPU model to prefer, e.g. "A100".
    gpu_name = config.get("gpuName")

    # The smallest template (fewest GPUs) with at least one GPU.
    templates = aicp.get_resource_templates(spec_type=["common"], gpu_name=gpu_name).templates
    gpu = sorted((t for t in templates if (t.gpu or 0) >= 1), key=lambda t: t.gpu or 0)
    if not gpu:
        raise Exception(f"no GPU template{f' with GPU {gpu_name}' if gpu_name else ''} is visible to this account")
    template = gpu[0]

    group = aicp.ResourceGroup(
        "quickstart",
        sku_id=template.rg_node_id or "sku-quickstart",
        pod_types=["instance", "job"],
        description="Created by the pulumi-aicp quickstart",
    )
    notebook = aicp.Notebook(
        "quickstart",
        charge_mode="elastic",
        duration=3600,
        image="jupyter/pytorch-notebook:latest",
        image_type="official",
        server_type="jupyter",
        replica_specs=aicp.ReplicaSpecsArgs(specs=template.rg_node_id or "", rg_id=template.rg_id or "", custom_gpu=1),
    )

    pulumi.export("groupId", group.rg_id)
    pulumi.export("template", f"{template.name} ({template.gpu:g} x {template.gpu_name})")
    pulumi.export("notebookId", notebook.uuid)
    pulumi.export("notebookStatus", notebook.status)
    pulumi.export("notebookUrl", notebook.ws_url)
