// @ts-check
// A notebook on the smallest template (fewest GPUs, then least memory) that has
// at least one GPU of the model named in config `gpuModel` (e.g. "A100").
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");

const config = new pulumi.Config();
const gpuModel = config.require("gpuModel");

const template = aicp.getResourceTemplatesOutput({ gpuName: gpuModel, specType: ["common"], podType: "instance" }).apply(({ templates }) => {
  const candidates = templates.filter((t) => (t.gpu ?? 0) >= 1).sort((a, b) => (a.gpu ?? 0) - (b.gpu ?? 0) || (a.memory ?? 0) - (b.memory ?? 0));
  if (candidates.length === 0) throw new Error(`no template with a ${gpuModel} GPU is visible to this account`);
  return candidates[0];
});

const notebook = new aicp.Notebook("from-template", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter/pytorch-notebook:latest",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: {
    specs: template.apply((t) => t.rgNodeId ?? ""),
    rgId: template.apply((t) => t.rgId ?? ""),
    templateId: template.apply((t) => t.tmpId ?? 0),
    customGpu: template.apply((t) => t.gpu ?? 1),
  },
});

exports.templateName = template.apply((t) => t.name);
exports.gpus = template.apply((t) => t.gpu);
exports.gpuName = template.apply((t) => t.gpuName);
exports.notebookId = notebook.uuid;
exports.status = notebook.status;
