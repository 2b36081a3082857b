/**
 * What users feel against what they cannot avoid (BENCH_ONLY=floor, issue
 * 28): the `pulumi preview` of N new notebooks, `pulumi up`, a no-op `pulumi
 * preview`, `pulumi refresh` and `pulumi destroy` at `--parallel 8` against
 * the emulator with the bench's latency on every request, beside the engine's
 * own floor (floor-stack.ts): the same commands on N dynamic resources whose
 * create, read and delete do nothing but wait one request's latency.
 * Interleaved pairs; with the requests each notebook cost, by operation, from
 * the emulator's log. The plugin's front (a YAML program) and notebooks with
 * pinned names are measured beside them at the sizes asked. Two more floors
 * tell what of the gap is the engine's and the SDK's for a resource of a
 * notebook's size: one whose resources record a notebook's bytes of state
 * ("same state"), and one whose resources take a recorded notebook's inputs
 * and answer its outputs, secrets included ("same resource"): what is left
 * between it and the notebooks is the provider's work and its requests.
 */
import type * as automation from "@pulumi/pulumi/automation";
import { floorStack, notebookState } from "./floor-stack";
import { countByOperation, notebookStack, spread, timed, yamlNotebookStack, type EmulatorProcess, type LoggedRequest } from "./lib";

type Stack = { stack: automation.Stack; dispose(): void };
/** "preview-new": the preview of the stack before its up, which checks every notebook as new. */
const commands = ["preview-new", "up", "preview", "refresh", "destroy"] as const;
type Command = (typeof commands)[number];

/** The emulator's request log: cleared before a command, counted by operation after it. */
interface RequestLog {
  clear(): Promise<void>;
  count(): Promise<Record<string, number>>;
}

function requestLog(emulator: EmulatorProcess): RequestLog {
  return {
    clear: () => emulator.admin("DELETE", "/requests"),
    count: async () => countByOperation((await emulator.admin<LoggedRequest[]>("GET", "/requests")).filter((r) => r.operation !== "admin")),
  };
}

/** A preview of the new stack, its up, a no-op preview, a refresh and its destroy at --parallel 8, timed (and their requests counted, given a log). */
async function cycle(stack: automation.Stack, log?: RequestLog) {
  const run: Record<Command, () => Promise<unknown>> = {
    "preview-new": () => stack.preview({ parallel: 8 }),
    up: () => stack.up({ parallel: 8 }),
    preview: () => stack.preview({ parallel: 8 }),
    refresh: () => stack.refresh({ parallel: 8 }),
    destroy: () => stack.destroy({ parallel: 8 }),
  };
  const ms = {} as Record<Command, number>;
  const requests = {} as Record<Command, Record<string, number>>;
  for (const command of commands) {
    await log?.clear();
    ms[command] = (await timed(run[command])).ms;
    if (log) requests[command] = await log.count();
  }
  return { ms, requests };
}

/** The figures of one command at one size and front. */
export interface FloorRow {
  n: number;
  front: Front;
  command: Command;
  ms: ReturnType<typeof spread>;
  engineFloor: ReturnType<typeof spread>;
  ratio: number;
  pairRatios: number[];
  /** The floor whose resources record as many bytes of state as a notebook (floorStack's stateBytes), and the ratio to it. */
  engineFloorSameState: ReturnType<typeof spread>;
  ratioSameState: number;
  /** The floor whose resources take a recorded notebook's inputs and answer its outputs (floorStack's recorded), and the ratio to it. */
  engineFloorSameResource: ReturnType<typeof spread>;
  ratioSameResource: number;
  requestsPerNotebook: number;
  requestsPerNotebookByOperation: Record<string, number>;
}

/** The TypeScript SDK with auto-names, the same with pinned names, or a YAML program through the plugin. */
type Front = "typescript" | "typescript-pinned" | "yaml";

/**
 * `pairs` interleaved cycles of N notebooks (and of N floor resources) for
 * each size; pinned names at `pinnedSizes`, the YAML front at `yamlSizes`.
 */
export async function againstFloor(
  root: string,
  emulator: EmulatorProcess,
  sizes: { all: number[]; pinned: number[]; yaml: number[] },
  pairs: number,
  latencyMs: number,
) {
  const rows: FloorRow[] = [];
  const { bytes: stateBytes, recorded } = await notebookState(root, emulator);
  for (const n of sizes.all) {
    const fronts: Array<[Front, Stack]> = [["typescript", await notebookStack(root, emulator, n)]];
    if (sizes.pinned.includes(n)) fronts.push(["typescript-pinned", await notebookStack(root, emulator, n, "pinned")]);
    if (sizes.yaml.includes(n)) fronts.push(["yaml", await yamlNotebookStack(root, emulator, n)]);
    const floor = await floorStack(root, n, latencyMs);
    const sameState = await floorStack(root, n, latencyMs, stateBytes);
    const sameResource = await floorStack(root, n, latencyMs, stateBytes, recorded);
    const measured = new Map(
      fronts.map(([front]) => [front, { ms: [] as Array<Record<Command, number>>, requests: {} as Record<Command, Record<string, number>> }]),
    );
    const floorMs: Array<Record<Command, number>> = [];
    const sameStateMs: Array<Record<Command, number>> = [];
    const sameResourceMs: Array<Record<Command, number>> = [];
    try {
      for (let pair = 0; pair < pairs; pair++) {
        for (const [front, { stack }] of fronts) {
          const result = await cycle(stack, pair === 0 ? requestLog(emulator) : undefined);
          measured.get(front)!.ms.push(result.ms);
          if (pair === 0) measured.get(front)!.requests = result.requests;
        }
        floorMs.push((await cycle(floor.stack)).ms);
        sameStateMs.push((await cycle(sameState.stack)).ms);
        sameResourceMs.push((await cycle(sameResource.stack)).ms);
      }
    } finally {
      for (const [, s] of fronts) s.dispose();
      floor.dispose();
      sameState.dispose();
      sameResource.dispose();
    }
    for (const [front, { ms, requests }] of measured) {
      for (const command of commands) {
        const mine = ms.map((m) => m[command]);
        const floors = floorMs.map((m) => m[command]);
        const sameStateFloors = sameStateMs.map((m) => m[command]);
        const sameResourceFloors = sameResourceMs.map((m) => m[command]);
        const byOperation = requests[command] ?? {};
        const total = Object.values(byOperation).reduce((sum, c) => sum + c, 0);
        rows.push({
          n,
          front,
          command,
          ms: spread(mine),
          engineFloor: spread(floors),
          ratio: round(spread(mine).median / spread(floors).median),
          pairRatios: mine.map((x, i) => round(x / floors[i]!)),
          engineFloorSameState: spread(sameStateFloors),
          ratioSameState: round(spread(mine).median / spread(sameStateFloors).median),
          engineFloorSameResource: spread(sameResourceFloors),
          ratioSameResource: round(spread(mine).median / spread(sameResourceFloors).median),
          requestsPerNotebook: round(total / n),
          requestsPerNotebookByOperation: Object.fromEntries(Object.entries(byOperation).map(([op, c]) => [op, round(c / n)])),
        });
      }
    }
  }
  return { pairs, latencyMs, notebookStateBytes: stateBytes, notebookOutputCount: recorded.outputKeys.length, rows };
}

/**
 * How the floor itself grows with each create's latency (BENCH_FLOOR_LATENCIES,
 * e.g. 50,100,150,200): what a create that costs k request latencies costs the
 * whole up, at N and --parallel 8, median of `runs` interleaved ups each.
 */
export async function floorByLatency(root: string, n: number, latencies: number[], runs: number) {
  const stacks = await Promise.all(latencies.map((latency) => floorStack(root, n, latency)));
  const ms = latencies.map(() => [] as number[]);
  try {
    for (let run = 0; run < runs; run++) {
      for (const [i, { stack }] of stacks.entries()) {
        ms[i]!.push((await timed(() => stack.up({ parallel: 8 }))).ms);
        await stack.destroy({ parallel: 8 });
      }
    }
  } finally {
    for (const s of stacks) s.dispose();
  }
  return { n, runs, rows: latencies.map((latencyMs, i) => ({ latencyMs, up: spread(ms[i]!) })) };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Prints the comparison as the README quotes it. */
export function printFloor(f: Awaited<ReturnType<typeof againstFloor>>): void {
  console.log(
    `\nAgainst the engine's floor, --parallel 8, ${f.latencyMs} ms per request, medians of ${f.pairs} interleaved pairs (ms); "same state": ` +
      `floor resources recording ${f.notebookStateBytes} bytes each, as a notebook does; "same resource": taking a recorded ` +
      `notebook's inputs and answering its ${f.notebookOutputCount} outputs:`,
  );
  console.log(
    "front".padEnd(19) +
      "command".padEnd(13) +
      "N".padEnd(6) +
      "ms".padEnd(9) +
      "floor".padEnd(9) +
      "ratio".padEnd(7) +
      "same state".padEnd(12) +
      "ratio".padEnd(7) +
      "same res.".padEnd(12) +
      "ratio".padEnd(7) +
      "requests/notebook",
  );
  for (const r of f.rows) {
    console.log(
      r.front.padEnd(19) +
        r.command.padEnd(13) +
        String(r.n).padEnd(6) +
        String(Math.round(r.ms.median)).padEnd(9) +
        String(Math.round(r.engineFloor.median)).padEnd(9) +
        String(r.ratio).padEnd(7) +
        String(Math.round(r.engineFloorSameState.median)).padEnd(12) +
        String(r.ratioSameState).padEnd(7) +
        String(Math.round(r.engineFloorSameResource.median)).padEnd(12) +
        String(r.ratioSameResource).padEnd(7) +
        `${r.requestsPerNotebook} ${JSON.stringify(r.requestsPerNotebookByOperation)}`,
    );
  }
}
