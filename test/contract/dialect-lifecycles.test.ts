/**
 * The dialect matrix through the in-process engine: a
 * program's whole lifecycle against the emulator in each dialect, configured
 * only as a user configures from the README (keys, user id, zone): up, a
 * no-op preview, an in-place update, refresh, a preview after it, destroy.
 * Against each: it converges, no duplicate, no orphan, no notebook dropped
 * from the state while it is live, and the adaptation costs at most one extra
 * request per unknown per client. test/contract/dialects.test.ts covers the
 * client's requests one by one; test/e2e/dialects.test.ts runs the furthest
 * dialect through the real engine.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { dialectCases, adaptationCost } from "../support/dialect-cases";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { emulatorStack, quickstart } from "../support/engine/programs";
import type { CommandResult, InProcessStack } from "../support/engine/stack";

const user = emulatorCredentials.userId;

/** The quickstart (a group, and a notebook on the smallest GPU template: a function call) with a stop time and an env. */
const program = (stopTime: string) => quickstart({ stopTime, envs: [{ name: "MODE", value: "debug" }] });

const ops = (result: CommandResult) => result.steps.map((s) => `${s.name}:${s.op}`);

/** One row of the summary printed after the file: what each dialect cost. */
const summary: string[] = [];

describe("the dialect matrix through the in-process engine", () => {
  afterAll(() => {
    console.log(["", "Dialect matrix (in-process): extra requests per command (up, preview, up, refresh, preview, destroy)", ...summary].join("\n"));
  });

  for (const c of dialectCases) {
    it(`converges on: ${c.name}`, async () => {
      const emulator = await startTestEmulator({ notebookReadyDelayMs: 50, dialect: c.dialect });
      try {
        const others = c.seed ? emulator.seedNotebooks({ namespace: user, count: c.seed, namePrefix: "someone-else" }) : [];
        const stack = emulatorStack(emulator);
        if (c.noZone) delete stack.options.config.zone;
        const ours = () => emulator.listNotebooks().filter((n) => n.namespace === user && !others.includes(String(n.uuid)));
        const groups = () => emulator.listResourceGroups().filter((g) => g.user_id === user);
        const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
        const costs: number[] = [];
        /** Runs one command and records the requests the adaptation cost in it. */
        const measured = async (run: (s: InProcessStack) => Promise<CommandResult>): Promise<CommandResult> => {
          emulator.clearRequests();
          const result = await run(stack);
          costs.push(adaptationCost(emulator));
          return result;
        };

        const up = await measured((s) => s.up(program("2030-01-01T18:00:00Z")));
        expect(ops(up)).toEqual(["quickstart:create", "quickstart:create"]);
        expect(ours()).toHaveLength(1);
        expect(ours()[0]!.status).toBe("Running");
        expect(groups()).toHaveLength(1);
        expect(stack.outputs.notebookId).toBe(ours()[0]!.uuid);

        const preview = await measured((s) => s.preview(program("2030-01-01T18:00:00Z")));
        expect(ops(preview)).toEqual(["quickstart:same", "quickstart:same"]);
        expect(writes()).toEqual([]);

        const update = await measured((s) => s.up(program("2030-06-01T20:00:00Z")));
        expect(ops(update)).toEqual(["quickstart:same", "quickstart:update"]);
        expect(update.steps[1]!.diffs).toEqual(["stopTime"]);
        // One write accepted (a dialect that signs the body refuses the first guess once).
        expect(
          writes()
            .filter((r) => r.status === 200)
            .map((r) => r.operation),
        ).toEqual(["setStopTime"]);
        expect(ours()).toHaveLength(1);

        const refresh = await measured((s) => s.refresh());
        expect(ops(refresh)).toEqual(["quickstart:refresh", "quickstart:refresh"]);
        expect(stack.find("quickstart", "Notebook")?.id).toBe(ours()[0]!.uuid);

        const after = await measured((s) => s.preview(program("2030-06-01T20:00:00Z")));
        expect(ops(after)).toEqual(["quickstart:same", "quickstart:same"]);
        expect(writes()).toEqual([]);

        await measured((s) => s.destroy());
        expect(ours()).toEqual([]);
        expect(groups()).toEqual([]);
        expect(emulator.listNotebooks()).toHaveLength(others.length);
        expect(stack.resources).toEqual([]);

        // Each command starts the plugin afresh; its lifecycles and its functions each hold a client that
        // learns each wrong guess at most once.
        for (const cost of costs) expect(cost).toBeLessThanOrEqual(2 * c.wrongGuesses);
        summary.push(`${c.name.padEnd(44)} ${costs.join(", ")}${c.noZone ? "   (aicp:zone unset)" : ""}`);
      } finally {
        await emulator.close();
      }
    });
  }
});

describe("refresh with 250 notebooks in the namespace and counts equal to the page length", () => {
  it("keeps every notebook of the stack that lies beyond the first page", async () => {
    const emulator: Emulator = await startTestEmulator({ notebookReadyDelayMs: 50, dialect: { counts: "page", totalSum: false } });
    try {
      const others = emulator.seedNotebooks({ namespace: user, count: 250, namePrefix: "someone-else" });
      const stack = emulatorStack(emulator);
      const notebook = {
        chargeMode: "elastic",
        duration: 3600,
        image: "jupyter/base-notebook:latest",
        imageType: "official",
        serverType: "jupyter",
        replicaSpecs: { specs: "sku-gpu-1", customGpu: 1 },
      };
      await stack.up({ resources: ["a", "b", "c"].map((n) => ({ kind: "Notebook" as const, name: `late-${n}`, inputs: notebook })) });
      const ours = emulator.listNotebooks().filter((n) => !others.includes(String(n.uuid)));
      expect(ours).toHaveLength(3);

      emulator.clearRequests();
      const refresh = await stack.refresh();
      expect(refresh.steps.map((s) => s.op)).toEqual(["refresh", "refresh", "refresh"]);
      expect(stack.resources.map((r) => r.id).sort()).toEqual(ours.map((n) => String(n.uuid)).sort());
      // Each list answer held at most 100 notebooks; the stack's notebooks, made after the 250, were found by the list
      // filtered by the token their auto-names share, not by paging through everyone else's.
      const lists = emulator.requests().filter((r) => r.operation === "listNotebooks");
      expect(lists.every((r) => Number(r.query?.limit) <= 100)).toBe(true);
      const token = /-([0-9a-f]{6})-[0-9a-f]{7}$/.exec(String(ours[0]!.name))?.[1];
      expect(ours.every((n) => token !== undefined && String(n.name).includes(token))).toBe(true);
      expect(lists.some((r) => r.query?.name === token)).toBe(true);
      expect(lists.every((r) => Number(r.query?.offset ?? 0) < 100)).toBe(true);

      await stack.destroy();
      expect(emulator.listNotebooks()).toHaveLength(250);
    } finally {
      await emulator.close();
    }
  });
});
