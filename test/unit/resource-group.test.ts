/** check and diff of ResourceGroup: pure functions, no requests. */
import { describe, expect, it } from "vitest";
import { check, diff, type ResourceGroupInputs, type ResourceGroupOutputs } from "../../provider/resource-group";

const inputs: ResourceGroupInputs = { logicalName: "team", skuId: "sku-1", podTypes: ["instance"] };
const olds = { ...inputs, name: "team-abc1234", autoNamed: true, description: "", customizeEnable: false, rgId: "rg-1" } as ResourceGroupOutputs;

describe("ResourceGroup check", () => {
  it("auto-names once and keeps the name on later checks", async () => {
    const first = await check({}, inputs);
    expect(first.failures).toBeUndefined();
    expect(first.inputs!.name).toMatch(/^team-[0-9a-f]{7}$/);
    const again = await check(first.inputs!, inputs);
    expect(again.inputs!.name).toBe(first.inputs!.name);
    // A pinned name that is new or changed is looked up on the platform (test/contract/name-preview.test.ts); one kept is not.
    expect((await check({ ...first.inputs!, name: "mine" }, { ...inputs, name: "mine" })).inputs!.name).toBe("mine");
  });

  it("says a derived name is too long in terms of the resource name and `name`", async () => {
    const result = await check({}, { ...inputs, logicalName: "t".repeat(120), autoNameSuffix: "0a1b2c-3d4e5f6" });
    expect(result.failures).toEqual([
      {
        property: "name",
        reason:
          `name must be at most 128 characters: the name was derived from the resource name '${"t".repeat(120)}' and a 15-character suffix ` +
          "(135 characters in all); shorten the resource name, or set `name`",
      },
    ]);
  });

  it("reports each broken rule against the camelCase property", async () => {
    const result = await check({}, { ...inputs, skuId: "", podTypes: ["gpu" as "infer", "infer", "infer"] });
    const properties = result.failures!.map((f) => f.property);
    expect(properties).toContain("skuId");
    expect(properties.some((p) => p.startsWith("podTypes"))).toBe(true);
    expect(result.failures!.every((f) => f.reason.length > 0)).toBe(true);
  });

  it("rejects an empty pod type list and a non-boolean customize flag", async () => {
    expect((await check({}, { ...inputs, podTypes: [] })).failures![0]!.property).toBe("podTypes");
    expect((await check({}, { ...inputs, customizeEnable: 1 as unknown as boolean })).failures!.map((f) => f.property)).toContain("customizeEnable");
  });
});

describe("ResourceGroup diff", () => {
  const news = { ...inputs, name: olds.name, autoNamed: true, description: "", customizeEnable: false };

  it("sees no change when nothing changed, whatever the pod type order", async () => {
    expect(await diff("rg-1", { ...olds, podTypes: ["job", "instance"] }, { ...news, podTypes: ["instance", "job"] })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("updates name, description, pod types and the customize flag in place", async () => {
    for (const change of [{ name: "new" }, { description: "d" }, { podTypes: ["infer"] as ResourceGroupInputs["podTypes"] }, { customizeEnable: true }]) {
      expect(await diff("rg-1", olds, { ...news, ...change })).toMatchObject({ changes: true, replaces: [] });
    }
  });

  it("replaces on a new skuId, naming it", async () => {
    expect(await diff("rg-1", olds, { ...news, skuId: "sku-2" })).toMatchObject({ changes: true, replaces: ["skuId"] });
  });
});
