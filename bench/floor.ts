/**
 * What users feel against what they cannot avoid (BENCH_ONLY=floor, issue
 * 28): `pulumi up --parallel 8` of N notebooks against the emulator with the
 * bench's latency on every request, beside the engine's own floor, the same
 * up of N dynamic resources whose create does nothing but wait one request's
 * latency. Interleaved pairs, each up followed by its destroy; with the
 * requests each created notebook cost, by operation, from the emulator's log.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { countByOperation, inlineStack, notebookStack, spread, timed, type EmulatorProcess, type LoggedRequest } from "./lib";

/** A stack of `count` dynamic resources whose create waits `latencyMs` and sends nothing. */
function floorStack(root: string, count: number, latencyMs: number): Promise<{ stack: automation.Stack; dispose(): void }> {
  const pulumi = createRequire(join(root, "package.json"))("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const wait = latencyMs;
  const provider: import("@pulumi/pulumi").dynamic.ResourceProvider = {
    async create() {
      await new Promise((resolve) => setTimeout(resolve, wait));
      return { id: `floor-${Math.random().toString(36).slice(2)}`, outs: {} };
    },
  };
  class FloorResource extends pulumi.dynamic.Resource {
    constructor(name: string) {
      super(provider, name, {}, {}, "Floor");
    }
  }
  return inlineStack(root, "floor", async () => {
    for (let i = 0; i < count; i++) new FloorResource(`floor-${i}`);
    return {};
  });
}

/** `pairs` interleaved ups (and destroys) of N notebooks and of N floor resources at `--parallel 8`. */
export async function againstFloor(root: string, emulator: EmulatorProcess, n: number, pairs: number, latencyMs: number) {
  const notebooks = await notebookStack(root, emulator, n);
  const floor = await floorStack(root, n, latencyMs);
  const upMs: number[] = [];
  const floorMs: number[] = [];
  let requests: Record<string, number> = {};
  try {
    for (let pair = 0; pair < pairs; pair++) {
      await emulator.admin("DELETE", "/requests");
      upMs.push((await timed(() => notebooks.stack.up({ parallel: 8 }))).ms);
      if (pair === 0) {
        const log = await emulator.admin<LoggedRequest[]>("GET", "/requests");
        requests = countByOperation(log.filter((r) => r.operation !== "admin"));
      }
      await notebooks.stack.destroy();
      floorMs.push((await timed(() => floor.stack.up({ parallel: 8 }))).ms);
      await floor.stack.destroy();
    }
  } finally {
    notebooks.dispose();
    floor.dispose();
  }
  const up = spread(upMs);
  const engineFloor = spread(floorMs);
  const total = Object.values(requests).reduce((sum, c) => sum + c, 0);
  return {
    n,
    pairs,
    up,
    engineFloor,
    ratio: Math.round((up.median / engineFloor.median) * 100) / 100,
    pairRatios: upMs.map((ms, i) => Math.round((ms / floorMs[i]!) * 100) / 100),
    requestsPerNotebook: Math.round((total / n) * 100) / 100,
    requestsPerNotebookByOperation: Object.fromEntries(Object.entries(requests).map(([op, c]) => [op, Math.round((c / n) * 100) / 100])),
  };
}

/** Prints the comparison as the README quotes it. */
export function printFloor(f: Awaited<ReturnType<typeof againstFloor>>): void {
  console.log(
    `\nup of ${f.n} notebooks at --parallel 8: ${Math.round(f.up.median)} ms against the engine floor ${Math.round(f.engineFloor.median)} ms, ` +
      `ratio ${f.ratio} (pairs ${f.pairRatios.join(", ")}; medians of ${f.pairs} interleaved pairs)`,
  );
  console.log(`requests per created notebook: ${f.requestsPerNotebook} (${JSON.stringify(f.requestsPerNotebookByOperation)})`);
}
