/**
 * The evidence that ties an object to a create (provider/create-evidence.ts), boundaries written out by
 * hand: the stated send time against the platform's creation time, with the zone known and unknown, and
 * the order every process puts the creates of one resource in.
 */
import { describe, expect, it } from "vitest";
import { inMadeOrder, madeAsStated } from "../../provider/create-evidence";

interface Obj {
  id: string;
  createdAt: number;
  stated?: string;
  /** The zone is not known: the creation time is a bare value read as UTC. */
  bare?: boolean;
  /** The place in its stack it states (a notebook's env). */
  place?: string;
}

const evidence = {
  idOf: (o: Obj) => o.id,
  createdAtOf: (o: Obj) => o.createdAt,
  createdAtUncertaintyMs: (o: Obj) => (o.bare ? 14 * 3_600_000 : 0),
  statedSentAtOf: (o: Obj) => o.stated,
};
const sent = "2026-11-28T10:00:00.000Z";
const at = (iso: string, extra: Partial<Obj> = {}): Obj => ({ id: "nb", createdAt: Date.parse(iso), stated: sent, ...extra });

describe("made as it states", () => {
  it("with the zone known: made within 2 minutes of the stated send, either way", () => {
    expect(madeAsStated(evidence, at("2026-11-28T10:00:01Z"))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T10:02:00Z"))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T10:02:01Z"))).toBe(false);
    expect(madeAsStated(evidence, at("2026-11-28T09:58:00Z"))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T09:57:59Z"))).toBe(false);
    // A copy made a quarter of an hour later states the original's time.
    expect(madeAsStated(evidence, at("2026-11-28T10:15:00Z"))).toBe(false);
  });

  it("with the zone unknown: within 2 minutes of a whole-hour offset from UTC-12 to UTC+14", () => {
    // Bare China time read as UTC: eight hours ahead.
    expect(madeAsStated(evidence, at("2026-11-28T18:00:05Z", { bare: true }))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T18:02:00Z", { bare: true }))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T18:02:01Z", { bare: true }))).toBe(false);
    // A copy made five minutes, or a quarter of an hour, after the original, in the same zone.
    expect(madeAsStated(evidence, at("2026-11-28T18:05:00Z", { bare: true }))).toBe(false);
    expect(madeAsStated(evidence, at("2026-11-28T18:15:00Z", { bare: true }))).toBe(false);
    // What it cannot tell: a copy made an hour after the original.
    expect(madeAsStated(evidence, at("2026-11-28T19:00:00Z", { bare: true }))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-28T05:30:00Z", { bare: true }))).toBe(false);
    expect(madeAsStated(evidence, at("2026-11-29T00:00:00Z", { bare: true }))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-29T01:00:00Z", { bare: true }))).toBe(false);
    expect(madeAsStated(evidence, at("2026-11-27T22:00:00Z", { bare: true }))).toBe(true);
    expect(madeAsStated(evidence, at("2026-11-27T21:00:00Z", { bare: true }))).toBe(false);
  });

  it("needs a stated send time and a creation time", () => {
    expect(madeAsStated(evidence, at("2026-11-28T10:00:00Z", { stated: undefined }))).toBe(false);
    expect(madeAsStated(evidence, at("2026-11-28T10:00:00Z", { stated: "yesterday" }))).toBe(false);
    // Without its zone a stated time would be read in each runner's own zone.
    expect(madeAsStated(evidence, at("2026-11-28T10:00:00Z", { stated: "2026-11-28T10:00:00" }))).toBe(false);
    expect(madeAsStated(evidence, { id: "nb", createdAt: NaN, stated: sent })).toBe(false);
  });
});

describe("made as it states, in its stack", () => {
  // Two stacks given one pinned identity share the mark on the TypeScript front; the place (the auto-name suffix) differs.
  const inStack = { ...evidence, stackPlace: "1487b32", statedStackPlaceOf: (o: Obj) => o.place };
  it("needs the resource's own place where it has one: another stack's, or none stated, is not", () => {
    expect(madeAsStated(inStack, { ...at("2026-11-28T10:00:01Z"), place: "1487b32" })).toBe(true);
    expect(madeAsStated(inStack, { ...at("2026-11-28T10:00:01Z"), place: "0c0ffee" })).toBe(false);
    expect(madeAsStated(inStack, at("2026-11-28T10:00:01Z"))).toBe(false);
    // Still made as it states: the time is checked as well.
    expect(madeAsStated(inStack, { ...at("2026-11-28T10:15:00Z"), place: "1487b32" })).toBe(false);
  });
});

describe("made order", () => {
  it("is the platform's creation time, then the stated send time, then the id; missing times last", () => {
    const same = Date.parse("2026-11-28T10:00:00Z");
    const objects: Obj[] = [
      { id: "nb-d", createdAt: NaN, stated: "2026-11-28T09:00:00.000Z" },
      { id: "nb-c", createdAt: same, stated: "2026-11-28T10:00:00.900Z" },
      { id: "nb-b", createdAt: same, stated: "2026-11-28T10:00:00.100Z" },
      { id: "nb-z", createdAt: same - 1000 },
      { id: "nb-a", createdAt: same, stated: "2026-11-28T10:00:00.900Z" },
    ];
    expect(inMadeOrder(evidence, objects).map((o) => o.id)).toEqual(["nb-z", "nb-b", "nb-a", "nb-c", "nb-d"]);
    expect(inMadeOrder(evidence, [...objects].reverse()).map((o) => o.id)).toEqual(["nb-z", "nb-b", "nb-a", "nb-c", "nb-d"]);
  });
});
