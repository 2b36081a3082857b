/**
 * Creates whose answer never reached the engine, through the in-process
 * engine (test/support/engine/stack.ts): lost to the request timeout, or to a
 * kill of the engine and its plugin mid-create (stack.kill(): the command's
 * plugin stops answering, the step in flight is not recorded, and the next
 * command starts a fresh plugin with nothing in memory). What outlives the
 * kill is what a real one leaves: the platform, the state recorded before
 * it, and the create journal on disk. These show the provider's side of the
 * kill -9 cases; what only a real process killed by a signal shows (the
 * engine's pending operations, `pulumi cancel`, processes outliving their
 * parent) stays in test/reliability/misbehaving.test.ts and plugin.test.ts.
 */
import { describe, expect, it } from "vitest";
import { requestsInFlight } from "../support/emulator";
import type { Program } from "../support/engine/stack";
import { failed, research } from "../support/engine/notebook-stack";
import { misbehaving, misbehavingCases, notebookInputs, type MisbehavingCase } from "../support/misbehaving-case";
import { namespace } from "../support/platform-console";
import { eventually } from "../support/poll";
import { reliabilityCase, type CaseCounts } from "../support/reliability";

/** A group and a notebook after it; `pinned` names both. */
const groupAndNotebook = (pinned: boolean): Program => ({
  resources: [
    { kind: "ResourceGroup", name: "team", inputs: { skuId: "sku-1", podTypes: ["instance"], ...(pinned ? { name: "team-pinned" } : {}) } },
    { kind: "Notebook", name: "research", inputs: notebookInputs(pinned ? { name: "research-pinned" } : {}) },
  ],
});

describe("creates whose answer the engine never got (in-process engine)", () => {
  const cases = misbehavingCases();

  /** Starts `up` and kills it once `ready` holds: the up ends there, its call in flight unanswered. */
  async function killedUp(c: MisbehavingCase, program: Program, ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const up = failed(c.stack.up(program));
    await eventually(ready, what);
    c.stack.kill();
    expect((await up).message).toMatch(/Call cancelled/);
  }

  /** Destroy leaves nothing of ours. */
  async function destroyed(c: MisbehavingCase, row: CaseCounts): Promise<void> {
    await c.stack.destroy();
    row.orphans = c.live().length + c.groups().length;
    expect(row.orphans).toBe(0);
  }

  it("a create whose answer is lost (latency above the request timeout) is sent once, found and recorded", () =>
    reliabilityCase("plugin", "plugin: latency above the timeout on create notebook", async (row) => {
      // The create answers after 1 s, the request gives up at 0.5 s, and the list is watched for 3 s.
      const c = await cases.setUp({ stack: { extraConfig: { requestTimeoutSeconds: "0.5" }, timings: { createWatchMs: 3000 } } });
      c.emulator.addFault({ kind: "latency", latencyMs: 1000, operation: "createNotebook", count: 1 });
      await c.stack.up(research({ readyTimeoutSeconds: 3600 }));
      row.duplicates = Math.max(0, c.live().length - 1);
      expect(c.sent("createNotebook")).toBe(1);
      expect(c.recorded()).toEqual(c.live().map((n) => n.uuid));
      await destroyed(c, row);
    }));

  for (const pinned of [false, true]) {
    it(
      `killed mid-create, the notebook made and not yet Running (${pinned ? "pinned names" : "auto-names"}): the next up adopts the notebook and keeps ` +
        `the group, destroy leaves nothing`,
      () =>
        misbehaving(`killed mid-create, ${pinned ? "pinned" : "auto"}`, async (row) => {
          // Running only when the test moves the emulator's clock: the create is answered, then up waits.
          const c = await cases.setUp({ emulator: { notebookReadyDelayMs: 3_600_000 } });
          await killedUp(c, groupAndNotebook(pinned), () => c.live().length > 0, "the notebook's create to reach the platform");
          // What the engine had recorded: the group, not the notebook.
          expect(c.stack.resources.map((r) => r.kind)).toEqual(["ResourceGroup"]);
          c.emulator.clock.advance(3_600_000);
          await c.stack.up(groupAndNotebook(pinned));
          console.log(
            `killed mid-create (${pinned ? "pinned" : "auto"}): ${c.sent("createNotebook")} notebook create(s), ${c.sent("createResourceGroup")} group ` +
              `create(s) in all`,
          );
          row.duplicates = c.live().length - 1 + c.groups().length - 1;
          expect(c.sent("createNotebook")).toBe(1);
          expect(c.sent("createResourceGroup")).toBe(1);
          expect(c.recorded()).toEqual(c.live().map((n) => n.uuid));
          expect(c.stack.find("team")!.id).toBe(c.groups()[0]!.rg_id);
          await destroyed(c, row);
        }),
    );
  }

  it("killed while the create is in flight, on a platform that lists new notebooks a minute late: the up right after sends no second create", () =>
    misbehaving("killed mid-create, list a minute late", async (row) => {
      const c = await cases.setUp();
      c.emulator.misbehave({ listDelayMs: 60_000 });
      c.emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 1000, count: 1 });
      const program = research({ readyTimeoutSeconds: 1 });
      // The lookups before the create answer at once; a request still open after them is the create.
      const inFlight = async () => c.sent("listNotebooks") > 0 && (await requestsInFlight(c.emulator)) > 0;
      await killedUp(c, program, inFlight, "the create to be in flight");
      expect(c.stack.resources).toEqual([]);
      await eventually(() => c.emulator.listNotebooks().some((n) => n.namespace === namespace), "the platform to finish the create");
      const again = await failed(c.stack.up(program));
      console.log(`killed mid-create, list a minute late: ${c.sent("createNotebook")} create request(s), ${c.live().length} notebook(s) after the next up`);
      row.duplicates = c.live().length - 1;
      expect(c.sent("createNotebook")).toBe(1);
      expect(again.message).toContain("earlier run sent the create");
      // The platform lists it a minute later; the next up records it, destroy removes it.
      c.emulator.clock.advance(60_000);
      await c.stack.up(program);
      expect(c.sent("createNotebook")).toBe(1);
      expect(c.recorded()).toHaveLength(1);
      expect(c.stack.find("research")!.outputs.uuid).toBe(c.live()[0]!.uuid);
      await destroyed(c, row);
    }));

  it("killed during a create that fails, then a fixed image: the Failed notebook is removed, not left behind", () =>
    misbehaving("killed during a failing create", async (row) => {
      const c = await cases.setUp({ emulator: { notebookReadyDelayMs: 1000 } });
      const broken = research({ name: "trial", image: "jupyter:does-not-exist" });
      await killedUp(c, broken, () => c.live().length > 0, "the create to reach the platform");
      c.emulator.clock.advance(1000);
      expect(c.live().map((n) => n.status)).toEqual(["Failed"]);
      await c.stack.up(research({ name: "trial" }));
      expect(c.live().map((n) => n.status)).toEqual(["Running"]);
      expect(c.sent("createNotebook")).toBe(2);
      expect(c.recorded()).toEqual(c.live().map((n) => n.uuid));
      await destroyed(c, row);
    }));
});
