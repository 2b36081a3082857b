/**
 * The example programs as the in-process engine (stack.ts) runs them: the
 * same resources, inputs and outputs as examples/quickstart/index.js, which
 * the engine project runs through the real CLI.
 */
import type { Emulator } from "../../../emulator";
import { emulatorCredentials, emulatorZone } from "../emulator";
import type { Program } from "./stack";
import { InProcessStack, type StackOptions } from "./stack";

/** The stack's aicp:* configuration for the emulator (keys without the prefix); `extra` adds or overrides. */
export function emulatorStackConfig(emulator: Emulator, extra: Record<string, string> = {}): Record<string, string> {
  return {
    baseUrl: emulator.url,
    accessKeyId: emulatorCredentials.accessKeyId,
    secretAccessKey: emulatorCredentials.secretAccessKey,
    userId: emulatorCredentials.userId,
    zone: emulatorZone,
    ...extra,
  };
}

/** A stack against the emulator with fast polls; `options` may change any of it. */
export function emulatorStack(emulator: Emulator, options: Partial<StackOptions> & { extraConfig?: Record<string, string> } = {}): InProcessStack {
  const { extraConfig, ...rest } = options;
  return new InProcessStack({ config: emulatorStackConfig(emulator, extraConfig), ...rest, timings: { pollIntervalMs: 50, ...rest.timings } });
}

interface Template {
  name?: string;
  gpu?: number;
  gpuName?: string;
  rgNodeId?: string;
  rgId?: string;
}

/** The smallest template with at least one GPU, as the quickstart picks it. */
async function smallestGpuTemplate(invoke: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<Template> {
  const { templates } = (await invoke("getResourceTemplates", { specType: ["common"] })) as { templates: Template[] };
  const gpu = templates.filter((t) => (t.gpu ?? 0) >= 1).sort((a, b) => (a.gpu ?? 0) - (b.gpu ?? 0));
  if (gpu.length === 0) throw new Error("no GPU template is visible to this account");
  return gpu[0]!;
}

/** examples/quickstart: a group, the smallest GPU template, a notebook on it; `notebook` changes the notebook's inputs. */
export function quickstart(notebook: Record<string, unknown> = {}): Program {
  return {
    resources: [
      {
        kind: "ResourceGroup",
        name: "quickstart",
        key: "group",
        inputs: async (_outs, invoke) => ({
          skuId: (await smallestGpuTemplate(invoke)).rgNodeId ?? "sku-quickstart",
          podTypes: ["instance", "job"],
          description: "Created by the pulumi-aicp quickstart",
        }),
      },
      {
        kind: "Notebook",
        name: "quickstart",
        key: "notebook",
        inputs: async (_outs, invoke) => {
          const template = await smallestGpuTemplate(invoke);
          return {
            chargeMode: "elastic",
            duration: 3600,
            image: "jupyter/pytorch-notebook:latest",
            imageType: "official",
            serverType: "jupyter",
            replicaSpecs: { specs: template.rgNodeId ?? "", rgId: template.rgId ?? "", customGpu: 1 },
            ...notebook,
          };
        },
      },
    ],
    outputs: (outs) => ({ groupId: outs.group?.rgId, notebookId: outs.notebook?.uuid, notebookStatus: outs.notebook?.status }),
  };
}
