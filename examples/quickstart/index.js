// @ts-check
// Quickstart: a resource group, the smallest GPU template, a notebook on it,
// and what a team reads back as stack outputs.
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");

const config = new pulumi.Config("quickstart");
// Optional: a GPU model to prefer, e.g. "A100".
const gpuName = config.get("gpuName");

// The smallest template (fewest GPUs) with at least one GPU.
const template = aicp.getResourceTemplatesOutput({ specType: ["common"], gpuName }).apply(({ templates }) => {
  const gpu = templates.filter((t) => (t.gpu ?? 0) >= 1).sort((a, b) => (a.gpu ?? 0) - (b.gpu ?? 0));
  if (gpu.length === 0) throw new Error(`no GPU template${gpuName ? ` with GPU ${gpuName}` : ""} is visible to this account`);
  return gpu[0];
});

const group = new aicp.ResourceGroup("quickstart", {
  skuId: template.apply((t) => t.rgNodeId ?? "sku-quickstart"),
  podTypes: ["instance", "job"],
  description: "Created by the pulumi-aicp quickstart",
});

const notebook = new aicp.Notebook("quickstart", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter/pytorch-notebook:latest",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: {
    specs: template.apply((t) => t.rgNodeId ?? ""),
    rgId: template.apply((t) => t.rgId ?? ""),
    customGpu: 1,
  },
});

exports.groupId = group.rgId;
exports.template = template.apply((t) => `${t.name} (${t.gpu} x ${t.gpuName})`);
exports.notebookId = notebook.uuid;
exports.notebookStatus = notebook.status;
exports.notebookUrl = notebook.wsUrl;
