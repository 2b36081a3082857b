/**
 * The platform on a bad day (emulator/misbehaviour.ts, faults), through the
 * in-process engine (test/support/engine/stack.ts): list answers that omit a
 * notebook, pages that shift while another user deletes, counts that lie,
 * and creates that outlive the request and are listed late or never. Each
 * case counts what a user would pay for: duplicates, orphans, and notebooks
 * dropped from the state while live. Lateness is the emulator's clock, moved
 * by the test; the provider's times are shortened (provider/timing.ts).
 * The kill -9 cases stay in test/reliability/misbehaving.test.ts; names held
 * by others are misbehaving-names.test.ts.
 */
import { describe, expect, it } from "vitest";
import { failed, research } from "../support/engine/notebook-stack";
import { misbehaving, misbehavingCases, type MisbehavingCase } from "../support/misbehaving-case";
import { namespace } from "../support/platform-console";
import type { CaseCounts } from "../support/reliability";

describe("a misbehaving platform (in-process engine)", () => {
  const cases = misbehavingCases();

  /** A notebook made by up, which the next three list answers leave out. */
  async function omitted() {
    const c = await cases.setUp();
    await c.stack.up(research());
    const [nb] = c.live();
    c.emulator.misbehave({ omit: { name: String(nb!.name), answers: 3 } });
    return { c, nb: nb! };
  }

  it("destroy when three list answers in a row omit the notebook: it stops and deletes it", () =>
    misbehaving("destroy, list omits the notebook", async (row) => {
      const { c } = await omitted();
      c.emulator.clearRequests();
      await c.stack.destroy();
      const sent = c.emulator.requests().map((r) => r.operation);
      expect(sent).toContain("stopNotebooks");
      expect(sent).toContain("setDeleteTime");
      row.dropped = c.live().length;
      expect(c.live()).toEqual([]);
    }));

  it("refresh when three list answers in a row omit the notebook: the state keeps it", () =>
    misbehaving("refresh, list omits the notebook", async (row) => {
      const { c, nb } = await omitted();
      await c.stack.refresh();
      row.dropped = c.recorded().includes(String(nb.uuid)) ? 0 : 1;
      expect(c.recorded()).toEqual([nb.uuid]);
      await c.stack.destroy();
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }));

  it("pages shift while another user deletes, counts are page lengths, 100 others come first: up, refresh and destroy keep track", () =>
    misbehaving("pages shift, counts = page", async (row) => {
      const c = await cases.setUp();
      c.emulator.setDialect({ counts: "page", totalSum: false });
      c.emulator.seedNotebooks({ namespace, count: 100, namePrefix: "other" });
      await c.stack.up(research({ stopTime: "2031-01-01T00:00:00Z" }));
      const mine = c.live().find((n) => String(n.name).startsWith("research-"))!;
      // From now on, each first page is followed by another user's delete: ours, 101st, shifts onto page 1 after it was read.
      c.emulator.misbehave({ shiftPages: "delete" });
      await c.stack.refresh();
      row.dropped = c.recorded().includes(String(mine.uuid)) ? 0 : 1;
      expect(c.recorded()).toEqual([mine.uuid]);
      await c.stack.destroy();
      row.orphans = c.live().filter((n) => n.uuid === mine.uuid).length;
      expect(row.orphans).toBe(0);
    }));

  it("counts claiming a million notebooks: every walk is bounded by what the pages show", () =>
    misbehaving("absurd counts", async (row) => {
      const c = await cases.setUp();
      c.emulator.seedNotebooks({ namespace, count: 5, namePrefix: "other" });
      c.emulator.misbehave({ claimedCount: 1_000_000 });
      const listed = () => c.emulator.requests().filter((r) => r.operation === "listNotebooks");
      const counts: number[] = [];
      let furthest = 0;
      for (const command of [() => c.stack.up(research()), () => c.stack.refresh(), () => c.stack.destroy()]) {
        c.emulator.clearRequests();
        await command();
        counts.push(listed().length);
        furthest = Math.max(furthest, ...listed().map((r) => Number(r.query?.offset ?? 0)));
      }
      console.log(`absurd counts: list requests per up, refresh, destroy: ${counts.join(", ")}; furthest offset asked: ${furthest}`);
      // Everything fits on the first page; a walk that believed counts would go on to offset 999,900.
      // Each walk may confirm a short page once (offset 100); none goes further.
      expect(counts.every((n) => n > 0)).toBe(true);
      expect(furthest).toBeLessThanOrEqual(100);
      row.orphans = c.live().filter((n) => String(n.name).startsWith("research-")).length;
      expect(row.orphans).toBe(0);
    }));

  it(
    "a new notebook the list shows only a while after its create (ordinary lag, within the missing grace): up waits it out instead of calling it " +
      "disappeared",
    () =>
      misbehaving("new notebook listed late", async (row) => {
        // The list lags 600 ms of real time; a notebook missing for up to 3 s is not yet gone.
        const c = await cases.setUp({ stack: { timings: { missingGraceMs: 3000 } } });
        c.emulator.misbehave({ listDelayMs: 600 });
        await c.stack.up(research());
        expect(c.sent("createNotebook")).toBe(1);
        row.duplicates = c.live().length - 1;
        expect(c.recorded()).toEqual(c.live().map((n) => n.uuid));
        await c.stack.destroy();
        row.orphans = c.live().length;
        expect(row.orphans).toBe(0);
      }),
  );

  /**
   * A case whose notebook create answers after the request timeout (its answer lost) and is listed
   * `listDelayMs` late by the emulator's clock; the wait limit, 1 s, bounds how long each command looks.
   */
  async function lostCreate(listDelayMs: number) {
    const c = await cases.setUp({ stack: { extraConfig: { requestTimeoutSeconds: "0.5" } } });
    c.emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 1000, count: 1 });
    c.emulator.misbehave({ listDelayMs });
    return { c, program: research({ readyTimeoutSeconds: 1 }) };
  }

  /** One create in all, one notebook recorded and live, and destroy leaves nothing. */
  async function oneCreateThenDestroy(c: MisbehavingCase, row: CaseCounts): Promise<void> {
    expect(c.sent("createNotebook")).toBe(1);
    row.duplicates = c.live().length - 1;
    expect(c.live()).toHaveLength(1);
    // An update cannot change a recorded id: the record may keep its provisional id, naming the notebook by its uuid.
    expect(c.recorded()).toHaveLength(1);
    expect(c.stack.find("research")!.outputs.uuid).toBe(c.live()[0]!.uuid);
    await c.stack.destroy();
    row.orphans = c.live().length;
    expect(row.orphans).toBe(0);
  }

  it("a create that outlives the request timeout and is listed a minute late: rerunning up sends no second create", () =>
    misbehaving("slow create, rerun up", async (row) => {
      const { c, program } = await lostCreate(60_000);
      const first = await failed(c.stack.up(program));
      expect(first.message).toContain("unconfirmed");
      // The provider's advice: run `pulumi up` again. Until the platform lists the notebook that sends no
      // create and fails; once it does, up adopts it. One create in all.
      const again = await failed(c.stack.up(program));
      expect(again.message).toContain("still unconfirmed");
      expect(c.sent("createNotebook")).toBe(1);
      c.emulator.clock.advance(60_000);
      await c.stack.up(program);
      console.log(`slow create, rerun up: ${c.sent("createNotebook")} create request(s) for 1 notebook after 3 runs of up`);
      await oneCreateThenDestroy(c, row);
    }));

  it("a create the list never shows: refresh then up, twice, sends one create and keeps the notebook recorded", () =>
    misbehaving("create never listed, refresh + up x2", async (row) => {
      const { c, program } = await lostCreate(3_600_000);
      await failed(c.stack.up(program));
      for (let i = 0; i < 2; i++) {
        await c.stack.refresh();
        expect(c.recorded()).toHaveLength(1);
        await failed(c.stack.up(program));
      }
      console.log(`create never listed: ${c.sent("createNotebook")} create request(s) after 1 up and 2 cycles of refresh + up`);
      expect(c.sent("createNotebook")).toBe(1);
      // The platform catches up: the next up adopts it and destroy removes it.
      c.emulator.clearMisbehaviour();
      await c.stack.up(program);
      await oneCreateThenDestroy(c, row);
    }));
});
