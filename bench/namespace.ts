/**
 * What a stack costs beside other people's notebooks (BENCH_ONLY=namespace,
 * issue 44): `pulumi up`, `pulumi refresh` and `pulumi destroy` of N
 * auto-named notebooks at `--parallel 32`, in an empty namespace and in one
 * that holds 1,000 notebooks no stack of this run made, each in an emulator
 * of its own whose notebooks are Running 1 s after their create, polled at
 * the provider's default intervals. Requests by
 * operation from the emulator's log, list requests per created notebook, and
 * the peak memory of the provider processes; then two stacks at once beside
 * the 1,000. The platform's quota is per user (docs/platform-api.md), so
 * every request a stack sends for someone else's notebooks is taken from
 * every other stack of the account.
 */
import { countByOperation, credentials, notebookStack, startEmulator, withProviderMemory, type EmulatorProcess, type LoggedRequest } from "./lib";

/** The parallelism the issue measures at: enough creates at once that readiness polls overlap. */
const parallel = 32;
const foreignCount = 1000;
/** The namespaces to measure in: empty and beside the foreign notebooks, or one of them (BENCH_NAMESPACE_FOREIGN=0 or 1000). */
const foreignCounts = (process.env.BENCH_NAMESPACE_FOREIGN ?? `0,${foreignCount}`).split(",").map(Number);
const namespace = credentials.userId.toLowerCase();

type Counts = Record<string, number>;

/** One command's requests by operation, list requests among them, and the provider processes' peak memory. */
interface CommandCost {
  requests: number;
  lists: number;
  byOperation: Counts;
  /** List requests by what they ask for: a page of the stack's scope (its token), a lookup by one name, a page of the whole namespace. */
  listsBy: { scope: number; name: number; namespace: number };
  peakProviderRssBytes: number;
}

/** A scope's filter is the 6 hex characters of a stack token (provider/identity.ts); any other name filter is a lookup by name. */
function listsBy(log: Array<LoggedRequest & { query?: Record<string, string> }>): CommandCost["listsBy"] {
  const counts = { scope: 0, name: 0, namespace: 0 };
  for (const r of log.filter((r) => r.operation === "listNotebooks")) {
    const name = r.query?.name;
    counts[name === undefined ? "namespace" : /^[0-9a-f]{6}$/.test(name) ? "scope" : "name"]++;
  }
  return counts;
}

async function measured(emulator: EmulatorProcess, work: () => Promise<unknown>): Promise<CommandCost> {
  await emulator.admin("DELETE", "/requests");
  const { peakRssBytes } = await withProviderMemory(work);
  const log = await emulator.admin<Array<LoggedRequest & { query?: Record<string, string> }>>("GET", "/requests");
  const byOperation = countByOperation(log);
  const requests = Object.values(byOperation).reduce((a, b) => a + b, 0);
  return { requests, lists: byOperation.listNotebooks ?? 0, byOperation, listsBy: listsBy(log), peakProviderRssBytes: peakRssBytes };
}

/** An emulator with the bench's latency, notebooks Running after 1 s, and `foreign` notebooks in the stack's namespace. */
async function namespaceOf(foreign: number, latencyMs: number): Promise<EmulatorProcess> {
  const emulator = await startEmulator(1000);
  await emulator.admin("POST", "/faults", { kind: "latency", latencyMs });
  if (foreign > 0) await emulator.admin("POST", "/notebooks", { namespace, count: foreign, namePrefix: "someone-else" });
  return emulator;
}

/** A stack of `n` auto-named notebooks whose waits poll as a user's do. */
const stackOf = (root: string, emulator: EmulatorProcess, n: number) => notebookStack(root, emulator, n, "auto", { defaultPolling: true });

/** up, refresh and destroy of `n` notebooks, each command's cost. */
async function lifecycle(root: string, emulator: EmulatorProcess, n: number) {
  const { stack, dispose } = await stackOf(root, emulator, n);
  try {
    const up = await measured(emulator, () => stack.up({ parallel }));
    const refresh = await measured(emulator, () => stack.refresh({ parallel }));
    const destroy = await measured(emulator, () => stack.destroy({ parallel }));
    return { n, up, refresh, destroy, listsPerCreated: round(up.lists / n, 2) };
  } finally {
    dispose();
  }
}

/** Two stacks of `n` notebooks each, up and destroyed at the same time, beside the foreign notebooks. */
async function twoStacks(root: string, emulator: EmulatorProcess, n: number) {
  const stacks = [await stackOf(root, emulator, n), await stackOf(root, emulator, n)];
  try {
    const up = await measured(emulator, () => Promise.all(stacks.map((s) => s.stack.up({ parallel }))));
    const destroy = await measured(emulator, () => Promise.all(stacks.map((s) => s.stack.destroy({ parallel }))));
    return { n, stacks: 2, up, destroy, listsPerCreated: round(up.lists / (2 * n), 2) };
  } finally {
    stacks.forEach((s) => s.dispose());
  }
}

export async function namespaceCost(root: string, sizes: number[], latencyMs: number) {
  const rows: Array<Record<string, unknown>> = [];
  for (const foreign of foreignCounts) {
    const emulator = await namespaceOf(foreign, latencyMs);
    try {
      for (const n of sizes) rows.push({ foreign, ...(await lifecycle(root, emulator, n)) });
      if (foreign > 0) rows.push({ foreign, ...(await twoStacks(root, emulator, Math.min(...sizes))) });
    } finally {
      emulator.stop();
    }
  }
  const ratios = sizes.map((n) => {
    const empty = rows.find((r) => r.foreign === 0 && r.n === n && !r.stacks) as Record<string, CommandCost> | undefined;
    const beside = rows.find((r) => r.foreign === foreignCount && r.n === n && !r.stacks) as Record<string, CommandCost> | undefined;
    const ratio = (command: string) => (empty && beside ? round(beside[command]!.requests / empty[command]!.requests, 2) : undefined);
    return { n, up: ratio("up"), refresh: ratio("refresh"), destroy: ratio("destroy") };
  });
  return { parallel, foreignCount, latencyMs, readyAfterMs: 1000, rows, besideForeignOverEmpty: ratios };
}

export function printNamespaceCost(report: Awaited<ReturnType<typeof namespaceCost>>): void {
  console.log(`\nrequests at --parallel ${report.parallel}, in an empty namespace and beside ${report.foreignCount} foreign notebooks`);
  console.log("foreign  n    stacks  up (lists/created)   refresh  destroy  peak provider RSS");
  for (const r of report.rows as Array<Record<string, unknown>>) {
    const cost = (c: string) => (r[c] as CommandCost | undefined)?.requests ?? "-";
    const rss = Math.max(...["up", "refresh", "destroy"].map((c) => (r[c] as CommandCost | undefined)?.peakProviderRssBytes ?? 0));
    console.log(
      `${String(r.foreign).padEnd(8)} ${String(r.n).padEnd(4)} ${String(r.stacks ?? 1).padEnd(7)} ` +
        `${`${cost("up")} (${String(r.listsPerCreated)})`.padEnd(20)} ${String(cost("refresh")).padEnd(8)} ${String(cost("destroy")).padEnd(8)} ` +
        `${Math.round(rss / 1e6)} MB`,
    );
    const up = r.up as CommandCost | undefined;
    if (up) console.log(`         up's lists: ${up.listsBy.scope} scope pages, ${up.listsBy.name} lookups by name, ${up.listsBy.namespace} namespace pages`);
  }
  for (const r of report.besideForeignOverEmpty) console.log(`n=${r.n}: beside/empty requests: up ${r.up}, refresh ${r.refresh}, destroy ${r.destroy}`);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
