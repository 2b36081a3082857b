/**
 * The create-once path (provider/create-once.ts) against a platform held in
 * memory (test/support/create-once-platform.ts): what is sent, adopted,
 * refused or recorded as unconfirmed, for each thing the name lookup can
 * show, with the journal (create-journal.ts) in the folder of this file
 * (test/support/isolated-journal.ts). Expectations are written out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { createOnce, isProvisional, lookedUpTwice, provisionalId, resolveProvisional, UnconfirmedCreate } from "../../provider/create-once";
import { madeBy } from "../../provider/create-evidence";
import { forgetCreate, recordCreate, sentCreate } from "../../provider/create-journal";
import { useTimings } from "../../provider/timing";
import { ago, lost, minute, refusalOf, target, type Obj } from "../support/create-once-platform";

let n = 0;
/** A fresh mark per test: the journal is shared by the file. */
const newMark = () => (++n).toString(16).padStart(32, "0");

let undo: () => void;
beforeAll(() => (undo = useTimings({ pollIntervalMs: 5 })));
afterAll(() => undo());

describe("createOnce", () => {
  it("sends one create when the name is free, and notes the new id in the journal", async () => {
    const mark = newMark();
    const { t, sent } = target(mark, []);
    expect(await createOnce(t)).toMatchObject({ object: { id: "nb-1", mark }, adopted: false });
    expect(sent).toEqual(["create"]);
    expect(sentCreate(mark)).toMatchObject({ noun: "notebook", name: "nb", id: "nb-1" });
  });

  it("refuses a name held by an object without a mark, or with another's, and sends nothing", async () => {
    for (const holder of [
      { id: "nb-x", createdAt: 0 },
      { id: "nb-x", mark: newMark(), createdAt: 0, status: "Running" },
    ]) {
      const mark = newMark();
      const { t, sent } = target(mark, [holder]);
      const refusal = await createOnce(t).catch((e: AicpError) => e);
      expect(refusal).toMatchObject({ code: "AICP_CONFLICT" });
      expect((refusal as AicpError).message).toContain("namespace usr-1 already holds a notebook named 'nb': nb-x (");
      expect((refusal as AicpError).message).toContain("It does not carry this resource's mark.");
      expect(sent).toEqual([]);
      expect(sentCreate(mark)).toBeUndefined();
    }
  });

  it("refuses a copy that carries this resource's mark when no create of its own is recorded", async () => {
    const mark = newMark();
    const { t, sent } = target(mark, [{ id: "nb-copy", mark, status: "Running", createdAt: Date.now() }]);
    const message = await refusalOf(createOnce(t));
    expect(message).toContain("nb-copy (Running, carrying this resource's mark, but no record of this resource's creates names it");
    expect(message).toContain("`adoptId`");
    expect(message).not.toContain("It does not carry");
    expect(sent).toEqual([]);
  });

  it("adopts what an earlier create of this resource made, and refuses a copy made before it was sent", async () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: new Date(Date.now() - 60 * minute).toISOString() });
    const copy = { id: "nb-old", mark, status: "Running", createdAt: Date.now() - 71 * minute };
    const { t, sent } = target(mark, [copy]);
    expect(await refusalOf(createOnce(t))).toContain("this one is not it (made before that");
    const ours = { id: "nb-ours", mark, status: "Running", createdAt: Date.now() - 69 * minute };
    const again = target(mark, [ours, { id: "nb-gone", createdAt: 0, deleting: true }]);
    expect(await createOnce(again.t)).toEqual({ object: ours, adopted: true });
    expect(sent.length + again.sent.length).toBe(0);
    expect(sentCreate(mark)?.id).toBe("nb-ours");
  });

  it("removes its own Failed object before creating again", async () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: new Date(Date.now() - minute).toISOString() });
    const { t, sent, removed } = target(mark, [{ id: "nb-failed", mark, status: "failed", createdAt: Date.now() }]);
    expect(await createOnce(t)).toMatchObject({ object: { id: "nb-1" }, adopted: false });
    expect(removed).toEqual(["nb-failed"]);
    expect(sent).toEqual(["create"]);
  });

  it("sends no second create while an earlier one may appear, and records it as unconfirmed", async () => {
    const mark = newMark();
    const sentAt = new Date(Date.now() - minute).toISOString();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt });
    const { t, sent } = target(mark, []);
    const error = await createOnce(t).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnconfirmedCreate);
    expect(error).toMatchObject({ provisionalId: `unconfirmed-create-${mark}`, sentAt, code: "AICP_WAIT" });
    expect((error as Error).message).toContain(`an earlier run sent the create of notebook 'nb' at ${sentAt}`);
    expect(sent).toEqual([]);
  });

  it("finds the object of a create whose answer was lost, or records the create as unconfirmed", async () => {
    const mark = newMark();
    const found = target(mark, [], { fails: lost(), appears: { id: "nb-late", mark, createdAt: Date.now() } });
    expect(await createOnce(found.t)).toEqual({ object: { id: "nb-late", mark, createdAt: expect.any(Number) }, adopted: false });
    expect(sentCreate(mark)?.id).toBe("nb-late");
    const other = newMark();
    const none = target(other, [], { fails: lost() });
    const error = await createOnce(none.t).catch((e: unknown) => e);
    expect(error).toMatchObject({ provisionalId: `unconfirmed-create-${other}`, code: "AICP_TIMEOUT", outcomeUnknown: true });
    expect((error as Error).message).toContain("No notebook named 'nb' with this resource's mark was listed in namespace usr-1 within 0 s.");
    expect(sentCreate(other)).toMatchObject({ name: "nb" });
  });

  it("never takes another's object for its own: not while watching for a lost answer, nor as an earlier create's", async () => {
    const mark = newMark();
    const stranger = { id: "nb-stranger", createdAt: Date.now() };
    const watched = target(mark, [], { fails: lost(), appears: stranger });
    await expect(createOnce(watched.t)).rejects.toBeInstanceOf(UnconfirmedCreate);
    const goingMark = newMark();
    const going = target(goingMark, [], { fails: lost(), appears: { id: "nb-going", mark: goingMark, createdAt: Date.now(), deleting: true } });
    await expect(createOnce(going.t)).rejects.toBeInstanceOf(UnconfirmedCreate);
    const journalled = newMark();
    recordCreate(journalled, { noun: "notebook", name: "nb", sentAt: ago(minute) });
    const other = target(journalled, [{ id: "nb-theirs", mark: newMark(), status: "Running", createdAt: Date.now() }]);
    expect(await refusalOf(createOnce(other.t))).toContain("nb-theirs (Running, made by another Pulumi resource)");
  });

  it("adopts an earlier create's object that shows while it is watched for", async () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(minute) });
    const listed: Obj[] = [];
    const { t, sent } = target(mark, listed);
    const ours = { id: "nb-late", mark, createdAt: Date.now() };
    t.findByName = async () => (listed.length === 0 ? (listed.push(ours), []) : [...listed]);
    expect(await createOnce(t)).toEqual({ object: ours, adopted: true });
    expect(sent).toEqual([]);
  });

  it("names each holder of the name and whose it is; a copy of the mark among them points to adoptId", async () => {
    const mark = newMark();
    const holders = [
      { id: "nb-a", createdAt: 0 },
      { id: "nb-b", mark, status: "Running", createdAt: 0 },
    ];
    const message = await refusalOf(createOnce(target(mark, holders).t));
    expect(message).toContain("nb-a (status unknown, not made by Pulumi), nb-b (Running, carrying this resource's mark, but no record");
    expect(message).not.toContain("It does not carry");
    expect(message).toContain("take it over deliberately: `adoptId`");
  });

  it("forgets the journal entry of a create the platform refused", async () => {
    const mark = newMark();
    const refused = new AicpError("AICP_RET_CODE", "quota exceeded");
    const { t } = target(mark, [], { fails: refused });
    await expect(createOnce(t)).rejects.toBe(refused);
    expect(sentCreate(mark)).toBeUndefined();
  });

  it("without a mark, writes no journal and watches for nothing", async () => {
    const { t, sent } = target(undefined, [], { fails: lost(), appears: { id: "nb-late", createdAt: Date.now() } });
    await expect(createOnce(t)).rejects.toMatchObject({ provisionalId: "unconfirmed-create-nb" });
    expect(sent).toEqual(["create"]);
  });
});

describe("madeBy, provisional ids and lookedUpTwice", () => {
  const t = { idOf: (o: Obj) => o.id, createdAtOf: (o: Obj) => o.createdAt };
  const sentAt = "2020-01-01T12:00:00.000Z";
  const at = (iso: string) => ({ id: "x", createdAt: Date.parse(iso) });

  it("takes the id the answer named, else a creation time from 10 minutes before the send to 10 minutes from now", () => {
    expect(madeBy(t, { id: "a", createdAt: 0 }, { sentAt, id: "a" })).toBe(true);
    expect(madeBy(t, at(sentAt), { sentAt, id: "b" })).toBe(false);
    expect(madeBy(t, at("2020-01-01T11:50:00.000Z"), { sentAt })).toBe(true);
    expect(madeBy(t, at("2020-01-01T11:49:59.999Z"), { sentAt })).toBe(false);
    expect(madeBy(t, { id: "x", createdAt: NaN }, { sentAt })).toBe(false);
    const now = new Date(Date.now()).toISOString();
    expect(madeBy(t, { id: "x", createdAt: Date.now() + 9 * minute }, { sentAt: now })).toBe(true);
    expect(madeBy(t, { id: "x", createdAt: Date.now() + 11 * minute }, { sentAt: now })).toBe(false);
  });

  it("names a provisional id by the mark, else the name", () => {
    expect(provisionalId("abc", "nb")).toBe("unconfirmed-create-abc");
    expect(provisionalId(undefined, "nb")).toBe("unconfirmed-create-nb");
    expect(isProvisional("unconfirmed-create-abc")).toBe(true);
    expect(isProvisional("nb-unconfirmed-create-abc")).toBe(false);
  });

  it("resolves a provisional id: found, pending in its window, past it, or past at once without a send time", async () => {
    const mark = newMark();
    const ours = { id: "nb-1", mark, createdAt: Date.now() };
    const lookup = (listed: Obj[]) => ({ ...target(mark, listed).t });
    const undoWindow = useTimings({ unconfirmedCreateWindowMs: 10 * minute });
    const sentAt = ago(minute);
    const until = new Date(Date.parse(sentAt) + 10 * minute).toISOString();
    expect(await resolveProvisional(lookup([]), sentAt, 0)).toEqual({ pending: until, unproven: "" });
    const old = ago(11 * minute);
    expect(await resolveProvisional(lookup([]), old, 0)).toEqual({ pastWindow: new Date(Date.parse(old) + 10 * minute).toISOString(), unproven: "" });
    expect(await resolveProvisional(lookup([ours]), undefined, 0)).toEqual({
      pastWindow: "an unknown time (the record holds no send time)",
      unproven: "",
    });
    undoWindow();
  });

  it("names a marked object the evidence does not tie to the create, never saying none is listed", async () => {
    const mark = newMark();
    const before = { id: "nb-before", mark, createdAt: Date.parse("2020-01-01T00:00:00Z") };
    const undoWindow = useTimings({ unconfirmedCreateWindowMs: 10 * minute });
    const resolved = await resolveProvisional(target(mark, [before]).t, ago(minute), 0);
    expect(resolved).toMatchObject({ unproven: expect.stringContaining("nb-before (made 2020-01-01T00:00:00.000Z)") });
    undoWindow();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(minute) });
    const { t, sent } = target(mark, [before]);
    const behind = target(mark, [before]).t;
    // The lookup before the create shows nothing; the watch for the earlier create shows the copy.
    let looks = 0;
    t.findByName = async () => (looks++ === 0 ? [] : behind.findByName());
    const message = await refusalOf(createOnce(t));
    expect(message).toContain("no notebook it made is listed");
    expect(message).toContain("nb-before (made 2020-01-01T00:00:00.000Z)");
    expect(sent).toEqual([]);
    forgetCreate(mark);
  });

  it("pauses between the two lookups", async () => {
    const started = Date.now();
    await lookedUpTwice(async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4);
  });

  it("asks a second time, told so, only when the first lookup misses", async () => {
    const asked: boolean[] = [];
    expect(await lookedUpTwice(async (again) => (asked.push(again), "found"))).toBe("found");
    expect(asked).toEqual([false]);
    expect(await lookedUpTwice(async (again) => (asked.push(again), again ? "late" : undefined))).toBe("late");
    expect(asked).toEqual([false, false, true]);
  });
});

afterAll(() => {
  for (let i = 1; i <= n; i++) forgetCreate(i.toString(16).padStart(32, "0"));
});

describe("madeBy when the platform's zone is not known yet", () => {
  // A bare date-time as a UTC+8 platform writes it, 30 s after the create was sent: read as UTC it is 8 hours ahead.
  const bareInUtcPlus8 = (at: number) =>
    new Date(at + 8 * 3_600_000)
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d{3}Z$/, "");
  const sentAt = new Date(Date.now() - 60_000).toISOString();
  const notebookOf = (createdAt: string) => ({ uuid: "nb-1", created_at: createdAt }) as never;

  it("takes a bare creation time as uncertain by the zones a platform may write in, so its own object is not refused", async () => {
    const { notebookByMark } = await import("../../provider/notebook/names");
    const { PlatformTimeZone } = await import("../../client/times");
    const unknownZone = { timeZone: new PlatformTimeZone() } as never;
    const lookup = notebookByMark(unknownZone, "ns", "nb", "m".repeat(32));
    expect(madeBy(lookup, notebookOf(bareInUtcPlus8(Date.now() - 30_000)), { sentAt })).toBe(true);
    // A copy made a day before the send is still not ours.
    expect(madeBy(lookup, notebookOf(bareInUtcPlus8(Date.now() - 86_400_000)), { sentAt })).toBe(false);
  });

  it("reads it exactly once the zone is known", async () => {
    const { notebookByMark } = await import("../../provider/notebook/names");
    const { PlatformTimeZone } = await import("../../client/times");
    const utc = { timeZone: new PlatformTimeZone(0) } as never;
    const lookup = notebookByMark(utc, "ns", "nb", "m".repeat(32));
    // Known to be UTC: a bare time 8 hours ahead of the clock is not a create sent a minute ago.
    expect(madeBy(lookup, notebookOf(bareInUtcPlus8(Date.now() - 30_000)), { sentAt })).toBe(false);
  });
});

describe("createOnce among several objects that answer to its evidence", () => {
  it("adopts the one made closest to the send, not a copy made minutes before it (within the clock slack)", async () => {
    const mark = newMark();
    const sentAt = ago(60_000);
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt });
    const own = { id: "nb-own", mark, status: "Running", createdAt: Date.parse(sentAt) + 1000 };
    const copy = { id: "nb-copy", mark, status: "Running", createdAt: Date.parse(sentAt) - 5 * minute };
    const { t, sent } = target(mark, [copy, own]);
    expect(await createOnce(t)).toMatchObject({ object: { id: "nb-own" }, adopted: true });
    expect(sent).toEqual([]);
    forgetCreate(mark);
  });

  it("adopts the one made closest to the send, not a copy made from it after it was listed", async () => {
    const mark = newMark();
    const sentAt = ago(60_000);
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt });
    // Listed in the order a platform may list them: the copy first.
    const own = { id: "nb-own", mark, status: "Running", createdAt: Date.now() - 50_000 };
    const copy = { id: "nb-copy", mark, status: "Running", createdAt: Date.now() - 10_000 };
    const { t, sent } = target(mark, [copy, own]);
    expect(await createOnce(t)).toMatchObject({ object: { id: "nb-own" }, adopted: true });
    expect(sent).toEqual([]);
    forgetCreate(mark);
  });
});
