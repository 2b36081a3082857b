/**
 * Pipelines at scale: each notebook's wait for Running
 * holds one of the engine's parallel slots, so an `up` of N notebooks that
 * take R to start needs about ceil(N / slots) x R. The limit is R plus the
 * fixed cost of the same up with notebooks that start at once: what an up
 * could take if every wait overlapped. Measured at the engine's default
 * parallelism and at the one the README and the CI example recommend.
 */
import { notebookStack, startEmulator, timed, type EmulatorProcess } from "./lib";

/** The `--parallel` the README and examples/ci/deploy.sh set for pipelines. */
export const recommendedParallelism = 128;

/** What the README recommends for an up of `n` notebooks: 128, or at least one slot per notebook when more wait at once. */
export function recommendedFor(n: number): number {
  return Math.max(recommendedParallelism, n);
}

export interface ReadinessRow {
  n: number;
  readinessMs: number;
  fixedCostMs: number;
  limitMs: number;
  defaultMs: number;
  defaultRatio: number;
  recommendedParallelism: number;
  recommendedMs: number;
  recommendedRatio: number;
}

/** One up (and destroy) of `n` notebooks against `emulator`, timed; `parallel` undefined is the engine's default. */
async function upOnce(root: string, emulator: EmulatorProcess, n: number, parallel: number | undefined): Promise<number> {
  const { stack, dispose } = await notebookStack(root, emulator, n);
  try {
    const { ms } = await timed(() => stack.up(parallel === undefined ? {} : { parallel }));
    await stack.destroy({ parallel: recommendedFor(n) });
    return ms;
  } finally {
    dispose();
  }
}

/** The readiness-bound figure for each size: R = `readinessMs`. */
export async function readinessBound(root: string, sizes: number[], readinessMs = 5000): Promise<ReadinessRow[]> {
  const instant = await startEmulator(0);
  const slow = await startEmulator(readinessMs);
  const rows: ReadinessRow[] = [];
  try {
    for (const n of sizes) {
      const parallel = recommendedFor(n);
      const fixedCostMs = await upOnce(root, instant, n, parallel);
      const defaultMs = await upOnce(root, slow, n, undefined);
      const recommendedMs = await upOnce(root, slow, n, parallel);
      const limitMs = readinessMs + fixedCostMs;
      const ratio = (ms: number) => Math.round((ms / limitMs) * 100) / 100;
      rows.push({
        n,
        readinessMs,
        fixedCostMs: Math.round(fixedCostMs),
        limitMs: Math.round(limitMs),
        defaultMs: Math.round(defaultMs),
        defaultRatio: ratio(defaultMs),
        recommendedParallelism: parallel,
        recommendedMs: Math.round(recommendedMs),
        recommendedRatio: ratio(recommendedMs),
      });
    }
  } finally {
    instant.stop();
    slow.stop();
  }
  return rows;
}

/** The table `npm run bench` prints. */
export function printReadiness(rows: ReadinessRow[]): void {
  console.log(
    "\nReadiness-bound up: N notebooks that take R to start; limit = R + fixed cost (the same up, notebooks ready at once, at the recommended " +
      `--parallel: ${recommendedParallelism}, or N when larger)`,
  );
  console.log(
    "N".padEnd(6) +
      "R ms".padEnd(8) +
      "limit ms".padEnd(10) +
      "default ms".padEnd(12) +
      "ratio".padEnd(8) +
      "--parallel".padEnd(12) +
      "ms".padEnd(10) +
      "ratio",
  );
  for (const r of rows) {
    console.log(
      String(r.n).padEnd(6) +
        String(r.readinessMs).padEnd(8) +
        String(r.limitMs).padEnd(10) +
        String(r.defaultMs).padEnd(12) +
        String(r.defaultRatio).padEnd(8) +
        String(r.recommendedParallelism).padEnd(12) +
        String(r.recommendedMs).padEnd(10) +
        String(r.recommendedRatio),
    );
  }
}
