// Quickstart in TypeScript: a resource group, the smallest GPU template, a
// notebook on it, and what a team reads back as stack outputs. `pulumi up`
// runs this file as written (Pulumi's nodejs host compiles it; Node.js 22.18
// and later can also run it by stripping its types, which is what the
// project's stand-in host does).
import * as pulumi from "@pulumi/pulumi";
import * as aicp from "pulumi-aicp";

interface Choice {
  name: string;
  nodeId: string;
  groupId: string;
  gpus: number;
  gpuName: string;
}

const config = new pulumi.Config("quickstart");
// Optional: a GPU model to prefer, e.g. "A100".
const gpuName: string | undefined = config.get("gpuName");

// The smallest template (fewest GPUs) with at least one GPU.
const template: pulumi.Output<Choice> = aicp.getResourceTemplatesOutput({ specType: ["common"], gpuName }).apply(({ templates }) => {
  const gpu = templates.filter((t) => (t.gpu ?? 0) >= 1).sort((a, b) => (a.gpu ?? 0) - (b.gpu ?? 0));
  const smallest = gpu[0];
  if (!smallest?.rgNodeId || !smallest.rgId) throw new Error(`no GPU template${gpuName ? ` with GPU ${gpuName}` : ""} is visible to this account`);
  return {
    name: smallest.name ?? smallest.rgNodeId,
    nodeId: smallest.rgNodeId,
    groupId: smallest.rgId,
    gpus: smallest.gpu ?? 0,
    gpuName: smallest.gpuName ?? "",
  };
});

const group = new aicp.ResourceGroup("quickstart", {
  skuId: template.nodeId,
  podTypes: ["instance", "job"],
  description: "Created by the pulumi-aicp TypeScript quickstart",
});

const notebook = new aicp.Notebook("quickstart", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter/pytorch-notebook:latest",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: template.nodeId, rgId: template.groupId, customGpu: 1 },
});

export const groupId: pulumi.Output<string> = group.rgId;
export const templateName: pulumi.Output<string> = pulumi.interpolate`${template.name} (${template.gpus} x ${template.gpuName})`;
export const notebookId: pulumi.Output<string> = notebook.uuid;
export const notebookStatus = notebook.status;
export const notebookUrl = notebook.wsUrl;
