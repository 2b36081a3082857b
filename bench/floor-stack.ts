/**
 * The engine's floor as bench/floor.ts measures it: stacks of dynamic resources that do nothing but wait one
 * request's latency, bare, with a notebook's bytes of state, or of a recorded notebook's shape, and that shape
 * read from an up of one notebook. Apart from floor.ts, which runs and compares the commands, because what a floor
 * resource is decides what the comparison means.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { inlineStack, notebookStack, type EmulatorProcess } from "./lib";

/**
 * A stack of `count` dynamic resources whose create, read and delete wait `latencyMs`
 * and send nothing; with `stateBytes`, each records about that many bytes of
 * inputs and outputs (half each), as a notebook does: the engine writes every
 * resource's state at each step, so the size of the state is part of the floor.
 * With `recorded`, each instead takes a recorded notebook's inputs, declares
 * every property it recorded, and answers its outputs from create, its
 * secrets as secrets: the SDK makes an output of every property, the engine
 * and the provider host carry every value at every step, so all of it is part
 * of the floor of a resource of that shape.
 */
export function floorStack(
  root: string,
  count: number,
  latencyMs: number,
  stateBytes = 0,
  recorded?: RecordedNotebook,
): Promise<{ stack: automation.Stack; dispose(): void }> {
  const pulumi = createRequire(join(root, "package.json"))("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const wait = latencyMs;
  // Read where create runs, not captured: the provider's closure is serialized into every resource's state.
  const outputsFile = recorded?.outputsFile;
  const inputs = recorded
    ? { ...Object.fromEntries(recorded.outputKeys.map((k) => [k, undefined])), ...recorded.inputs }
    : stateBytes > 0
      ? { padding: "x".repeat(Math.round(stateBytes / 2)) }
      : {};
  const provider: import("@pulumi/pulumi").dynamic.ResourceProvider = {
    async create(given) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      const outs = outputsFile ? (JSON.parse(readFileSync(outputsFile, "utf8")) as Record<string, unknown>) : given;
      return { id: `floor-${Math.random().toString(36).slice(2)}`, outs };
    },
    async read(id, props) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      return { id, props };
    },
    async delete() {
      await new Promise((resolve) => setTimeout(resolve, wait));
    },
  };
  class FloorResource extends pulumi.dynamic.Resource {
    constructor(name: string) {
      // A copy for each: the dynamic resource writes its provider into the object it is given.
      super(provider, name, { ...inputs }, { additionalSecretOutputs: recorded?.secretKeys }, "Floor");
    }
  }
  return inlineStack(root, recorded ? "floor-resource" : stateBytes > 0 ? "floor-state" : "floor", async () => {
    for (let i = 0; i < count; i++) new FloorResource(`floor-${i}`);
    return {};
  });
}

/** What a floor resource of a notebook's shape takes and answers (floorStack). */
export interface RecordedNotebook {
  inputs: Record<string, unknown>;
  /** A JSON file of the outputs, secrets as their plain values. */
  outputsFile: string;
  outputKeys: string[];
  secretKeys: string[];
}

/** The state's wrapper of a secret value: its signature key, with the value as JSON text once decrypted. */
const secretSignature = "4dabf18193072939515e22adb298388d";

/** A recorded value with its secrets unwrapped to their plain values; the names of the secret ones. */
function unwrapSecrets(recorded: Record<string, unknown>): { values: Record<string, unknown>; secrets: string[] } {
  const secrets: string[] = [];
  const values = Object.fromEntries(
    Object.entries(recorded).map(([key, value]) => {
      const wrapped = value !== null && typeof value === "object" && secretSignature in value ? (value as { plaintext?: string }) : undefined;
      if (!wrapped) return [key, value];
      secrets.push(key);
      return [key, wrapped.plaintext === undefined ? null : JSON.parse(wrapped.plaintext)];
    }),
  );
  return { values, secrets };
}

/**
 * Bytes of inputs and outputs one notebook records in the state (JSON), and
 * what a floor resource takes and answers to be of its shape, from an up of one.
 */
export async function notebookState(root: string, emulator: EmulatorProcess): Promise<{ bytes: number; recorded: RecordedNotebook }> {
  const { stack, dispose } = await notebookStack(root, emulator, 1);
  try {
    await stack.up();
    const resources = ((await stack.exportStack()).deployment as { resources?: Array<{ type: string; inputs?: unknown; outputs?: unknown }> }).resources;
    const notebook = resources?.find((r) => r.type === "pulumi-nodejs:dynamic/aicp:Notebook");
    await stack.destroy();
    const { __provider: _in, ...inputs } = (notebook?.inputs ?? {}) as Record<string, unknown>;
    const { __provider: _out, ...outputs } = (notebook?.outputs ?? {}) as Record<string, unknown>;
    const plain = unwrapSecrets(outputs);
    const outputsFile = join(root, "floor-outputs.json");
    writeFileSync(outputsFile, JSON.stringify(plain.values));
    return {
      bytes: Buffer.byteLength(JSON.stringify(notebook?.inputs ?? {})) + Buffer.byteLength(JSON.stringify(notebook?.outputs ?? {})),
      recorded: { inputs: unwrapSecrets(inputs).values, outputsFile, outputKeys: Object.keys(outputs), secretKeys: plain.secrets },
    };
  } finally {
    dispose();
  }
}
