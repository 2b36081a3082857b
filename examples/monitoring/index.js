// @ts-check
// Reads what a team watches, as stack outputs: the disk usage of a notebook and
// the pods of a running training job (config `endpoint`, default "pytorchjobs",
// and `trainName`).
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");

const config = new pulumi.Config();
const endpoint = config.get("endpoint") ?? "pytorchjobs";
const trainName = config.require("trainName");

const notebook = new aicp.Notebook("watched", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter/datascience-notebook:latest",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: config.get("skuId") ?? "sku-notebook-small", customCpu: 2 },
});

const disk = aicp.getNotebookDiskMetricsOutput({ uuid: notebook.uuid });
const job = aicp.getTrainingPodsOutput({ endpoint, trainName });

exports.diskUsedBytes = disk.usedBytes;
exports.diskCapacityBytes = disk.capacityBytes;
exports.diskUsedPercent = pulumi
  .all([disk.usedBytes, disk.capacityBytes])
  .apply(([used, capacity]) => (used !== undefined && capacity ? Math.round((100 * used) / capacity) : undefined));
exports.trainingPods = job.pods.apply((pods) =>
  pods.map((p) => ({ name: p.metadata?.name, phase: p.status?.phase, node: p.spec?.nodeName, podIp: p.status?.podIP })),
);
