/**
 * What the guardrails pack adds to a no-op preview (issue 26: at most 1 s at
 * N = 100), in both its forms: the folder, run by @pulumi/policy's Node.js
 * runtime, and the executable in it, the pack's own analyzer
 * (policy/analyzer.ts). Previews without the pack, with the folder and with
 * the executable, interleaved; every policy advisory, so a preview that
 * breaks the baseline still completes and is timed whole.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { automation } from "@pulumi/pulumi";
import { policies } from "../policy/policies";
import { notebookStack, repo, timed, type EmulatorProcess } from "./lib";

/** Every policy of the pack, each configured advisory. */
const policyNames = policies.map((p) => p.name);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The pack's cost on `stack`'s no-op preview, medians of `rounds` interleaved rounds (none, folder, executable). */
export async function packCost(stack: automation.Stack, rounds: number) {
  const config = join(mkdtempSync(join(tmpdir(), "aicp-bench-policy-")), "policy-config.json");
  writeFileSync(config, JSON.stringify(Object.fromEntries(policyNames.map((n) => [n, "advisory"]))));
  const forms = { folder: join(repo, "policy/pack"), executable: join(repo, "policy/pack/aicp-guardrails") };
  const times = { without: [] as number[], folder: [] as number[], executable: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    times.without.push((await timed(() => stack.preview())).ms);
    for (const form of ["folder", "executable"] as const) {
      times[form].push((await timed(() => stack.preview({ policyPacks: [forms[form]], policyPackConfigs: [config] }))).ms);
    }
  }
  const withoutMs = median(times.without);
  const form = (xs: number[]) => ({ withMs: round(median(xs), 0), addedMs: round(median(xs) - withoutMs, 0), ratio: round(median(xs) / withoutMs, 2) });
  return { withoutMs: round(withoutMs, 0), folder: form(times.folder), executable: form(times.executable), rounds };
}

/** BENCH_ONLY=policy: the pack's cost at each of `sizes` notebooks. */
export async function policyForms(root: string, emulator: EmulatorProcess, sizes: number[], rounds: number) {
  const rows = [];
  for (const n of sizes) {
    const { stack, dispose } = await notebookStack(root, emulator, n);
    try {
      await stack.up();
      rows.push({ n, ...(await packCost(stack, rounds)) });
      await stack.destroy();
    } finally {
      dispose();
    }
  }
  return rows;
}

export function printPolicyForms(rows: Awaited<ReturnType<typeof policyForms>>): void {
  console.log(`\nThe guardrails pack on a no-op preview, medians of ${rows[0]?.rounds} interleaved rounds (ms):`);
  console.log("N      without  folder (added, ratio)     executable (added, ratio)");
  for (const r of rows) {
    const f = (x: { withMs: number; addedMs: number; ratio: number }) => `${x.withMs} (+${x.addedMs}, ${x.ratio})`.padEnd(26);
    console.log(`${String(r.n).padEnd(7)}${String(r.withoutMs).padEnd(9)}${f(r.folder)}${f(r.executable)}`);
  }
}
