/**
 * `npm run bench`: what teams feel when they manage many notebooks, measured
 * against the emulator with 50 ms added to every request. Prints a table and
 * writes the figures to bench/results/. Settings: BENCH_RUNS (default 3),
 * BENCH_SIZES (default 1,10,50,100), BENCH_READINESS_SIZES (default 40,100,300),
 * BENCH_ONLY=readiness (only the readiness-bound figure), BENCH_ONLY=scale (only
 * the scale rows and the no-op preview, up and refresh) or BENCH_ONLY=plugin
 * (only the plugin's two forms, bench/plugin.ts) or BENCH_ONLY=floor (only up,
 * preview and refresh against the engine's floor, bench/floor.ts, at
 * BENCH_FLOOR_SIZES, default 1,10,100,300, and as a YAML program through the
 * plugin at BENCH_YAML_SIZES, default 100, and with pinned names at
 * BENCH_PINNED_SIZES, default 100) or BENCH_ONLY=floor-latency (how the
 * floor of 100 resources grows with each create's latency, BENCH_FLOOR_LATENCIES)
 * or BENCH_ONLY=policy (what the guardrails pack adds to a preview, both its
 * forms, bench/policy.ts, at BENCH_POLICY_SIZES, default 1,100) or
 * BENCH_ONLY=namespace (up, refresh and destroy beside 1,000 foreign
 * notebooks, bench/namespace.ts, at BENCH_NAMESPACE_SIZES, default
 * 50,100,200,300, in the namespaces BENCH_NAMESPACE_FOREIGN names, default
 * 0,1000).
 */
import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gpuTemplate, PlatformWriter } from "../test/support/platform-writer";
import { mapConcurrent, statedTotal } from "../client/paging";
import { configureFrom } from "../provider/context";
import * as notebook from "../provider/notebook";
import type { NotebookInputs } from "../provider/notebook/inputs";
import { adaptationCost, refreshAtScale } from "./dialects";
import { againstFloor, floorByLatency, printFloor } from "./floor";
import { pluginForms, printPluginForms } from "./plugin";
import { namespaceCost, printNamespaceCost } from "./namespace";
import { printReport } from "./print-report";
import { packCost, policyForms, printPolicyForms } from "./policy";
import { printReadiness, readinessBound } from "./readiness";
import {
  countByOperation,
  credentials,
  installPackage,
  notebookArgs,
  notebookStack,
  repo,
  spread,
  startEmulator,
  timed,
  withProviderMemory,
  writes,
  type EmulatorProcess,
  type LoggedRequest,
} from "./lib";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const sizes = (process.env.BENCH_SIZES ?? "1,10,50,100").split(",").map(Number);
/** The sizes of the comparison with the engine's floor (BENCH_FLOOR_SIZES), and those also run as a YAML program through the plugin (BENCH_YAML_SIZES). */
const floorSizes = (process.env.BENCH_FLOOR_SIZES ?? "1,10,100,300").split(",").map(Number);
const yamlFloorSizes = (process.env.BENCH_YAML_SIZES ?? "100").split(",").map(Number);
/** The sizes of the comparison also run with a pinned name on every notebook (BENCH_PINNED_SIZES). */
const pinnedFloorSizes = (process.env.BENCH_PINNED_SIZES ?? "100").split(",").map(Number);
/** The create latencies of the floor's own growth (BENCH_ONLY=floor-latency, bench/floor.ts floorByLatency). */
const floorLatencies = (process.env.BENCH_FLOOR_LATENCIES ?? "50,100,150,200").split(",").map(Number);
/** The sizes of the guardrails pack's cost (BENCH_ONLY=policy, bench/policy.ts). */
const policySizes = (process.env.BENCH_POLICY_SIZES ?? "1,100").split(",").map(Number);
/** The sizes of the namespace rows (BENCH_ONLY=namespace, bench/namespace.ts). */
const namespaceSizes = (process.env.BENCH_NAMESPACE_SIZES ?? "50,100,200,300").split(",").map(Number);
const latencyMs = 50;
/** `pulumi up --parallel` default on this machine (the CLI prints it in `pulumi up --help`). */
const engineParallelism = 8;

async function main(): Promise<void> {
  process.env.AICP_POLL_INTERVAL_MS = "100";
  const root = installPackage();
  const emulator = await startEmulator(50);
  await emulator.admin("POST", "/faults", { kind: "latency", latencyMs });
  configureFrom(
    (key) =>
      ({
        "aicp:baseUrl": emulator.url,
        "aicp:accessKeyId": credentials.accessKeyId,
        "aicp:secretAccessKey": credentials.secretAccessKey,
        "aicp:userId": credentials.userId,
        "aicp:zone": "xb3",
      })[key],
  );
  const report: Record<string, unknown> = { date: new Date().toISOString(), machine: { cpus: cpus().length, memoryBytes: totalmem() }, latencyMs, runs };
  const readinessSizes = (process.env.BENCH_READINESS_SIZES ?? "40,100,300").split(",").map(Number);
  const only = process.env.BENCH_ONLY;
  const readinessOnly = only === "readiness";
  try {
    if (only === undefined || only === "readiness") report.readiness = await readinessBound(root, readinessSizes);
    if (only === undefined || only === "scale") report.scale = await scale(root, emulator);
    if (only === undefined || only === "plugin") report.plugin = await pluginForms(Math.max(5, runs));
    if (only === undefined || only === "floor")
      report.floor = await againstFloor(root, emulator, { all: floorSizes, pinned: pinnedFloorSizes, yaml: yamlFloorSizes }, Math.max(5, runs), latencyMs);
    if (only === "policy") report.policy = await policyForms(root, emulator, policySizes, Math.max(5, runs));
    if (only === "namespace") report.namespace = await namespaceCost(root, namespaceSizes, latencyMs);
    if (only === "floor-latency") report.floorByLatency = await floorByLatency(root, 100, floorLatencies, Math.max(3, runs));
    if (only === undefined) {
      report.templates = await templates(emulator);
      report.refreshAtScale = await refreshAtScale(latencyMs);
      report.adaptation = await adaptationCost();
      report.startup = startup(root);
    }
  } finally {
    emulator.stop();
    rmSync(root, { recursive: true, force: true });
  }
  mkdirSync(join(repo, "bench/results"), { recursive: true });
  const file = join(repo, "bench/results", `${String(report.date).slice(0, 10)}${only ? `-${only}` : ""}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  if (readinessOnly) printReadiness(report.readiness as Awaited<ReturnType<typeof readinessBound>>);
  else if (only === "plugin") printPluginForms(report.plugin as Awaited<ReturnType<typeof pluginForms>>);
  else if (only === "floor") printFloor(report.floor as Awaited<ReturnType<typeof againstFloor>>);
  else if (only === "policy") printPolicyForms(report.policy as Awaited<ReturnType<typeof policyForms>>);
  else if (only === "namespace") printNamespaceCost(report.namespace as Awaited<ReturnType<typeof namespaceCost>>);
  else if (only === "floor-latency") console.log(JSON.stringify(report.floorByLatency, null, 2));
  else printReport(report, { latencyMs, runs, engineParallelism });
  console.log(`\nfigures written to bench/results/${file.split("/").pop()}`);
}

async function scale(root: string, emulator: EmulatorProcess) {
  const rows: Array<Record<string, unknown>> = [];
  const largest = Math.max(...sizes);
  let noop: Record<string, unknown> = {};
  let packAtSmallest: Record<string, unknown> | undefined;
  for (const n of sizes) {
    const upMs: number[] = [];
    const baselineMs: number[] = [];
    let detail: Record<string, unknown> = {};
    for (let run = 0; run < runs; run++) {
      const { stack, dispose } = await notebookStack(root, emulator, n);
      await emulator.admin("DELETE", "/requests");
      await emulator.admin("DELETE", "/connections");
      const { result: up, peakRssBytes } = await withProviderMemory(() => timed(() => stack.up()));
      upMs.push(up.ms);
      if (run === 0) {
        const log = await emulator.admin<LoggedRequest[]>("GET", "/requests");
        const connections = await emulator.admin<{ peak: number; peakInFlight: number }>("GET", "/connections");
        const perResource = Object.fromEntries(Object.entries(countByOperation(log)).map(([op, count]) => [op, round(count / n, 2)]));
        detail = {
          requestsPerResource: perResource,
          peakConnections: connections.peak,
          peakInFlight: connections.peakInFlight,
          peakProviderRssBytes: peakRssBytes,
        };
      }
      if (n === largest && run === runs - 1) noop = await noOpAndRefresh(stack, emulator, n);
      // The pack's fixed start, apart from its evaluation of many notebooks.
      else if (n === Math.min(...sizes) && run === runs - 1) packAtSmallest = { n, ...(await packCost(stack, 3)) };
      await stack.destroy();
      dispose();
      baselineMs.push((await baseline(n, run)).ms);
    }
    rows.push({ n, up: spread(upMs), baseline: spread(baselineMs), ...detail });
  }
  const fixed = rows.find((r) => r.n === Math.min(...sizes));
  for (const row of rows) {
    if (row === fixed || !fixed) continue;
    const marginal = (key: "up" | "baseline") =>
      ((row[key] as { median: number }).median - (fixed[key] as { median: number }).median) / ((row.n as number) - (fixed.n as number));
    row.marginalMsPerNotebook = round(marginal("up"), 1);
    row.baselineMarginalMsPerNotebook = round(marginal("baseline"), 1);
    row.marginalRatio = round(marginal("up") / marginal("baseline"), 2);
  }
  return { rows, fixedCostMs: fixed ? (fixed.up as { median: number }).median : undefined, noop, packAtSmallest };
}

/** The same API calls made directly through our client, with the engine's concurrency. */
async function baseline(n: number, run: number): Promise<{ ms: number }> {
  const inputs = Array.from({ length: n }, (_, i) => ({ ...notebookArgs, logicalName: `base-${i}`, autoNameSuffix: `r${run}` })) as unknown as NotebookInputs[];
  const checked = await Promise.all(inputs.map(async (i) => (await notebook.check({}, i)).inputs!));
  const { result: created, ms } = await timed(() => mapConcurrent(checked, engineParallelism, (i) => notebook.create(i)));
  await mapConcurrent(created, engineParallelism, (c) => notebook.remove(c.id, c.outs as never));
  return { ms };
}

async function noOpAndRefresh(stack: Awaited<ReturnType<typeof notebookStack>>["stack"], emulator: EmulatorProcess, n: number) {
  const measure = async (work: () => Promise<unknown>) => {
    await emulator.admin("DELETE", "/requests");
    const { ms } = await timed(work);
    const log = await emulator.admin<LoggedRequest[]>("GET", "/requests");
    return { ms: round(ms, 0), requests: log.filter((r) => r.operation !== "admin").length, writes: writes(log), byOperation: countByOperation(log) };
  };
  const preview = await measure(() => stack.preview());
  const policy = await packCost(stack, 3);
  const secondUp = await measure(() => stack.up());
  const refresh = await measure(() => stack.refresh());
  const exported = await stack.exportStack();
  const resources = ((exported.deployment as { resources?: Array<{ type: string; inputs?: { __provider?: string } }> }).resources ?? []).filter(
    (r) => r.type === "pulumi-nodejs:dynamic/aicp:Notebook",
  );
  const listPagesNeeded = Math.ceil(n / 100);
  return {
    n,
    preview,
    policy,
    secondUp,
    refresh: { ...refresh, listPagesNeeded, listPagesRatio: round((refresh.byOperation.listNotebooks ?? 0) / listPagesNeeded, 2) },
    state: {
      providerBytesPerResource: Buffer.byteLength(resources[0]?.inputs?.__provider ?? ""),
      stateBytesPerNotebook: Math.round(Buffer.byteLength(JSON.stringify(exported)) / n),
    },
  };
}

/** Concurrent versus sequential paging over a catalogue of 1,000 added templates. */
async function templates(emulator: EmulatorProcess) {
  const client = new PlatformWriter({ baseUrl: emulator.url, zone: "xb3", credentials });
  const added = Array.from({ length: 1000 }, (_, i) => gpuTemplate(`bench-${i}`, `node-bench-${i}`));
  await mapConcurrent(added, 16, (t) => client.createTemplate(t));
  const first = await client.listTemplates({ limit: 1 });
  const total = statedTotal(first) ?? first.items.length;
  const concurrent: number[] = [];
  const sequential: number[] = [];
  for (let run = 0; run < runs; run++) {
    concurrent.push((await timed(() => client.listAllTemplates())).ms);
    sequential.push((await timed(() => client.listAllTemplates({}, { concurrency: 1 }))).ms);
  }
  await client.close();
  const c = spread(concurrent);
  const s = spread(sequential);
  return { templates: total, concurrent: c, sequential: s, ratio: round(s.median / c.median, 2) };
}

/** What `require("pulumi-aicp")` adds to a program's start, in fresh processes. */
function startup(root: string) {
  const measure = (script: string) =>
    Array.from({ length: Math.max(5, runs) }, () => Number(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" }).trim()));
  const clock = "const t = process.hrtime.bigint();";
  const done = "console.log(Number(process.hrtime.bigint() - t) / 1e6);";
  const pulumiAlone = measure(`${clock} require("@pulumi/pulumi"); ${done}`);
  const added = measure(`require("@pulumi/pulumi"); ${clock} require("pulumi-aicp"); ${done}`);
  return { requirePulumiMs: spread(pulumiAlone.map((x) => round(x, 1))), addedByPulumiAicpMs: spread(added.map((x) => round(x, 1))) };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
