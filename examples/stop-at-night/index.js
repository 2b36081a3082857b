// @ts-check
// A notebook that stops on schedule and can be parked from config, without
// code changes: `pulumi config set desiredState Stopped && pulumi up` stops it
// in place, `Running` starts it again; `stopTime` moves its planned stop.
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");

const config = new pulumi.Config();
const desiredState = config.get("desiredState") === "Stopped" ? "Stopped" : "Running";
// When the platform stops the notebook, e.g. "2030-01-01T20:00:00Z".
const stopTime = config.require("stopTime");
const skuId = config.get("skuId") ?? "sku-notebook-small";

const notebook = new aicp.Notebook("nightly", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter/scipy-notebook:latest",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: skuId, customCpu: 4, customMemory: 16 },
  desiredState,
  stopTime,
});

exports.notebookId = notebook.uuid;
exports.status = notebook.status;
exports.stopTime = notebook.stopTime;
