/** Bare date-times: reading them in a zone, writing the zone out, and learning it from an echo (platform-api B5). */
import { describe, expect, it } from "vitest";
import { instantOf, parseZone, PlatformTimeZone, withZone, zoneFromEcho } from "../../client/times";
import { sameInstant } from "../../provider/notebook/times";

const at = (iso: string) => new Date(iso).getTime();

describe("zones", () => {
  it("parses the ways people write a zone, and refuses what is not one", () => {
    expect([parseZone("UTC"), parseZone("Z"), parseZone("+08:00"), parseZone("+0800"), parseZone("UTC+8"), parseZone("-05:30")]).toEqual([
      0, 0, 480, 480, 480, -330,
    ]);
    expect([parseZone("Asia/Shanghai"), parseZone("+15:00"), parseZone("+08:75")]).toEqual([undefined, undefined, undefined]);
  });

  it("reads a bare value in the given zone and a zoned one as written", () => {
    expect(instantOf("2030-01-02T02:00:00", 480)).toBe(at("2030-01-01T18:00:00Z"));
    expect(instantOf("2030-01-02 02:00", 480)).toBe(at("2030-01-01T18:00:00Z"));
    expect(instantOf("2030-01-01T18:00:00Z", 480)).toBe(at("2030-01-01T18:00:00Z"));
    expect(instantOf("2030-01-02T02:00:00+0800")).toBe(at("2030-01-01T18:00:00Z"));
    expect(instantOf("tomorrow")).toBeNaN();
  });

  it("writes the zone out on bare values only", () => {
    expect(withZone("2030-01-02T02:00:00", 480)).toBe("2030-01-02T02:00:00+08:00");
    expect(withZone("2030-01-02 02:00:00", 0)).toBe("2030-01-02T02:00:00Z");
    expect(withZone("2030-01-02T02:00:00Z", 480)).toBe("2030-01-02T02:00:00Z");
  });
});

describe("learning the platform's zone from a value it wrote just now", () => {
  const sent = at("2026-11-22T10:00:00Z");
  const answered = sent + 300;

  it("finds +08:00 and UTC from a created_at written during the request", () => {
    expect(zoneFromEcho("2026-11-22T18:00:00", sent, answered)).toBe(480);
    expect(zoneFromEcho("2026-11-22T10:00:00.2", sent, answered)).toBe(0);
    expect(zoneFromEcho("2026-11-22T04:30:00", sent, answered)).toBe(-330);
  });

  it("learns nothing from a value that is zoned, far from any quarter hour, or more than 14 h away", () => {
    expect(zoneFromEcho("2026-11-22T10:00:00Z", sent, answered)).toBeUndefined();
    expect(zoneFromEcho("2026-11-22T10:07:30", sent, answered)).toBeUndefined();
    expect(zoneFromEcho("2026-11-23T10:00:00", sent, answered)).toBeUndefined();
    expect(zoneFromEcho("not a time", sent, answered)).toBeUndefined();
  });

  it("keeps a configured zone over anything learned", () => {
    const configured = new PlatformTimeZone(0);
    configured.learn(480);
    expect(configured.offset).toBe(0);
    const learned = new PlatformTimeZone();
    expect(learned.normalise("2030-01-02T02:00:00")).toBe("2030-01-02T02:00:00");
    learned.learn(480);
    expect(learned.normalise("2030-01-02T02:00:00")).toBe("2030-01-02T02:00:00+08:00");
  });
});

describe("comparing a recorded time with the program's", () => {
  it("sees no change when a +08:00 platform echoes the instant the program set", () => {
    expect(sameInstant("2030-01-02T02:00:00+08:00", "2030-01-01T18:00:00Z")).toBe(true);
    expect(sameInstant("2030-01-02T02:00:00", "2030-01-01T18:00:00Z", 480)).toBe(true);
  });

  it("reads a bare program value the way the platform does", () => {
    expect(sameInstant("2030-01-02T02:00:00+08:00", "2030-01-02 02:00:00")).toBe(true);
  });

  it("ignores the fraction of a second a platform drops", () => {
    expect(sameInstant("2030-01-02T02:00:07+08:00", "2030-01-01T18:00:07.334Z")).toBe(true);
  });

  it("still sees a real change, including one of whole hours", () => {
    expect(sameInstant("2030-01-02T02:00:00+08:00", "2030-01-01T19:00:00Z")).toBe(false);
    expect(sameInstant("2030-01-02T02:00:00", "2030-01-01T18:00:00Z")).toBe(false);
  });
});
