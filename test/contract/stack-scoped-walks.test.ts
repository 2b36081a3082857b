/**
 * In-process: what a stack's notebooks cost in list requests follows the
 * stack, not the namespace (issue 44). The same creates, refresh reads and
 * removals, each phase in a provider process of its own as a command of its
 * own runs, in an empty namespace and beside 1,000 notebooks no stack made;
 * counted from the emulator's request log. The oracle is the log: the test
 * knows nothing of how the provider scopes its walks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import type { NotebookOutputs } from "../../provider/notebook";
import { mapConcurrent } from "../../client/paging";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";

const namespace = emulatorCredentials.userId.toLowerCase();
const parallel = 32;

type NotebookModule = typeof import("../../provider/notebook");

describe("walks scoped to the stack", () => {
  let emulator: Emulator;
  const lists = () => emulator.requests().filter((r) => r.operation === "listNotebooks").length;
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === namespace && !String(n.name).startsWith("someone-else"));

  /** A provider process of its own (fresh modules), configured for the emulator, as each command's is. */
  async function providerProcess(): Promise<NotebookModule> {
    vi.resetModules();
    (await import("../../provider/timing")).useTimings({ pollIntervalMs: 50 });
    (await import("../../provider/context")).configureFrom(emulatorSettings(emulator));
    return import("../../provider/notebook");
  }

  /** The inputs the SDK gives check for resource `nb-<i>` of a stack whose identity is `stackId`. */
  async function sdkInputs(stackId: string, i: number): Promise<NotebookInputs> {
    const { autoNameSuffixOf, ownerMarkOf } = await import("../../provider/identity");
    const place = `aicp-bench::bench::aicp:Notebook::nb-${i}`;
    return validNotebookInputs({
      logicalName: `nb-${i}`,
      autoNameSuffix: autoNameSuffixOf(place, stackId),
      ownerMark: ownerMarkOf(place, stackId),
      readyTimeoutSeconds: 60,
    });
  }

  /** List requests of an up, a refresh and a destroy of `n` notebooks, `parallel` at a time, each in a provider process of its own. */
  async function lifecycle(n: number, stackId: string) {
    emulator.clearRequests();
    const up = await providerProcess();
    const made = await mapConcurrent(
      Array.from({ length: n }, (_, i) => i),
      parallel,
      async (i) => {
        const created = await up.create((await up.check({}, await sdkInputs(stackId, i))).inputs!);
        return { id: created.id, outs: created.outs as NotebookOutputs };
      },
    );
    const upLists = lists();
    expect(ours().filter((nb) => nb.status === "Running")).toHaveLength(n);

    emulator.clearRequests();
    const refresh = await providerProcess();
    const read = await mapConcurrent(made, parallel, (m) => refresh.read(m.id, m.outs));
    expect(read.map((r) => r.id)).toEqual(made.map((m) => m.id));
    const refreshLists = lists();

    emulator.clearRequests();
    const destroy = await providerProcess();
    await mapConcurrent(made, parallel, (m) => destroy.remove(m.id, m.outs));
    expect(ours()).toHaveLength(0);
    return { up: upLists, refresh: refreshLists, destroy: lists() };
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 500 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.clearFaults();
    for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
    emulator.addFault({ kind: "latency", latencyMs: 20 });
  });

  it("an up, a refresh and a destroy of 50 beside 1,000 foreign notebooks list at most 1.2 times what they list in an empty namespace", async () => {
    const empty = await lifecycle(50, "s2-0123456789abcdef0123456789abcdef");
    emulator.seedNotebooks({ namespace, count: 1000, namePrefix: "someone-else" });
    const beside = await lifecycle(50, "s2-fedcba9876543210fedcba9876543210");
    for (const command of ["up", "refresh", "destroy"] as const) {
      expect(empty[command], `${command} in an empty namespace lists at least once`).toBeGreaterThan(0);
      expect(beside[command], `${command} beside 1,000 foreign notebooks (empty: ${empty[command]})`).toBeLessThanOrEqual(1.2 * empty[command]);
    }
  }, 240_000);

  it("list requests per created notebook stay at most 1.6 at 50 and at 200 notebooks, beside 1,000 foreign ones", async () => {
    emulator.seedNotebooks({ namespace, count: 1000, namePrefix: "someone-else" });
    for (const n of [50, 200]) {
      const { up } = await lifecycle(n, `s2-${String(n).padStart(4, "0")}456789abcdef0123456789abcdef`);
      expect(up / n, `list requests per created notebook at ${n}`).toBeLessThanOrEqual(1.6);
    }
  }, 480_000);
});
