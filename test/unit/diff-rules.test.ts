/**
 * The comparisons every diff stands on (provider/inputs.ts sameValue and
 * changedKeys, provider/notebook/inputs.ts sameInstant, coversSubset and the
 * clearing of inputs a program stops setting) and the shape of the resource
 * group's diff, with expectations written out by hand. notebook.test.ts and
 * resource-group.test.ts check which properties update and which replace.
 */
import { describe, expect, it } from "vitest";
import { changedKeys, sameValue } from "../../provider/inputs";
import { coversSubset, diffNotebook } from "../../provider/notebook/diff";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { sameInstant } from "../../provider/notebook/times";
import { plannedGroupDiff as groupDiff, type ResourceGroupOutputs } from "../../provider/resource-group";

describe("sameValue", () => {
  it("compares JSON values deeply, ignoring undefined members", () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: [1, { c: "x" }] }, { a: [1, { c: "x" }] })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue({ a: 1, b: 3 }, { a: 1, c: 3 })).toBe(false);
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue({}, [])).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue({}, null)).toBe(false);
    expect(sameValue(null, undefined)).toBe(false);
    expect(sameValue("1", 1)).toBe(false);
    expect(sameValue(null, null)).toBe(true);
  });

  it("names the keys whose values differ, in the order asked", () => {
    expect(changedKeys({ a: 1, b: [1], c: "x" }, { a: 2, b: [1], c: "y" }, ["c", "b", "a", "d"])).toEqual(["c", "a"]);
  });
});

describe("coversSubset", () => {
  it("compares only what the program set, lists in full and in order", () => {
    expect(coversSubset({ a: 1, extra: 2 }, { a: 1 })).toBe(true);
    expect(coversSubset({ a: { b: 1, c: 2 } }, { a: { b: 1 } })).toBe(true);
    expect(coversSubset({ a: 1 }, undefined)).toBe(true);
    expect(coversSubset({ a: 2 }, { a: 1 })).toBe(false);
    expect(coversSubset([{ a: 1, x: 0 }], [{ a: 1 }])).toBe(true);
    expect(coversSubset([{ a: 1 }, { a: 2 }], [{ a: 1 }])).toBe(false);
    expect(coversSubset([{ a: 2 }], [{ a: 1 }])).toBe(false);
    expect(coversSubset({ 0: 1 }, [1])).toBe(false);
    expect(coversSubset(null, { a: 1 })).toBe(false);
    expect(coversSubset("text", { a: 1 })).toBe(false);
    expect(coversSubset(undefined, null)).toBe(false);
  });
});

describe("sameInstant", () => {
  it("reads bare date-times in the recorded value's zone, else the platform's, else UTC, to the second", () => {
    expect(sameInstant("2030-01-01T18:00:00", "2030-01-01T18:00:00Z")).toBe(true);
    expect(sameInstant("2030-01-01T18:00:00", "2030-01-01T18:00:00Z", 8 * 60)).toBe(false);
    expect(sameInstant("2030-01-01T18:00:00", "2030-01-01T10:00:00Z", 8 * 60)).toBe(true);
    expect(sameInstant("2030-01-01T18:00:00+08:00", "2030-01-01T18:00:00", 0)).toBe(true);
    expect(sameInstant("2030-01-01T18:00:00.900Z", "2030-01-01T18:00:00.100Z")).toBe(true);
    expect(sameInstant("2030-01-01T18:00:01Z", "2030-01-01T18:00:00.999Z")).toBe(false);
    expect(sameInstant("soon", "soon")).toBe(true);
    expect(sameInstant("soon", "later")).toBe(false);
    expect(sameInstant("2030-01-01T18:00:00Z", "later")).toBe(false);
    expect(sameInstant(undefined, undefined)).toBe(true);
    expect(sameInstant(null, "2030-01-01T18:00:00Z")).toBe(false);
  });
});

describe("an input the program stops setting", () => {
  /** The program's inputs: only what a case sets. */
  const news = (set: Partial<NotebookInputs> = {}) => set as NotebookInputs;
  const at = "2030-01-01T18:00:00Z";

  it("is cleared in place for a time, and replaces the notebook for any other field the platform keeps", () => {
    expect(diffNotebook({ stopTime: at, inputShape: { stopTime: true } }, news())).toEqual({ updates: ["stopTime"], replaces: [] });
    expect(diffNotebook({ autoDeleteTime: at, inputShape: { autoDeleteTime: true } }, news())).toEqual({ updates: ["autoDeleteTime"], replaces: [] });
    expect(diffNotebook({ image: "jupyter:1", inputShape: { image: true } }, news())).toEqual({ updates: ["image"], replaces: [] });
    expect(diffNotebook({ pip: "pip-1", inputShape: { pip: true } }, news())).toEqual({ updates: [], replaces: ["pip"] });
  });

  it("changes nothing when the platform holds nothing for it, or the program never set it (or the state is too old to say)", () => {
    for (const none of [undefined, null, "", []]) {
      expect(diffNotebook({ envs: none, inputShape: { envs: true } }, news())).toEqual({ updates: [], replaces: [] });
    }
    expect(diffNotebook({ stopTime: at, inputShape: { image: true } }, news())).toEqual({ updates: [], replaces: [] });
    expect(diffNotebook({ stopTime: at }, news())).toEqual({ updates: [], replaces: [] });
    expect(diffNotebook({ stopTime: at, inputShape: null }, news())).toEqual({ updates: [], replaces: [] });
  });

  it("takes a default the program left out as wanted, against a recorded value or the default", () => {
    expect(diffNotebook({ desiredState: "Stopped" }, news())).toEqual({ updates: ["desiredState"], replaces: [] });
    expect(diffNotebook({}, news({ desiredState: "Stopped" }))).toEqual({ updates: ["desiredState"], replaces: [] });
    expect(diffNotebook({}, news({ readyTimeoutSeconds: 600 }))).toEqual({ updates: [], replaces: [] });
  });
});

describe("the resource group's diff", () => {
  const olds = { name: "g", rgId: "rg-1", skuId: "sku-1", podTypes: ["job", "instance"], description: "", customizeEnable: false } as ResourceGroupOutputs;

  it("lists the in-place changes, then the replacing ones, and always deletes before replacing", async () => {
    expect(groupDiff("rg-1", olds, { ...olds, name: "h", skuId: "sku-2" })).toEqual({
      changes: true,
      replaces: ["skuId"],
      diffs: ["name", "skuId"],
      deleteBeforeReplace: true,
    });
    expect(groupDiff("rg-1", olds, { ...olds, podTypes: ["instance", "job"] })).toEqual({
      changes: false,
      replaces: [],
      diffs: [],
      deleteBeforeReplace: true,
    });
    expect(groupDiff("rg-1", olds, { ...olds, podTypes: ["job"] })).toMatchObject({ changes: true, diffs: ["podTypes"] });
  });

  it("resolves an unconfirmed create by an update, never a replacement", async () => {
    expect(groupDiff("unconfirmed-create-abc", { ...olds, rgId: "" }, { ...olds, skuId: "sku-2" })).toEqual({ changes: true, replaces: [] });
    expect(groupDiff("unconfirmed-create-abc", olds, { ...olds, skuId: "sku-2" })).toMatchObject({ replaces: ["skuId"] });
  });
});
