/** A check failure as the engine receives it (provider/check-failures.ts): the path and the value in the reason, no property. */
import { describe, expect, it } from "vitest";
import { engineFailure } from "../../provider/check-failures";

describe("a check failure for the engine", () => {
  it("names the value at the failure's path, as JSON", () => {
    const inputs = { podTypes: ["infer", "train"], replicaSpecs: { customGpuList: ["1", "1"] }, duration: 7200 };
    expect(engineFailure({ property: "podTypes[1]", reason: "podTypes[1] is wrong" }, inputs, [])).toEqual({
      property: "",
      reason: 'podTypes[1] is wrong, got "train"',
    });
    expect(engineFailure({ property: "replicaSpecs.customGpuList", reason: "r" }, inputs, []).reason).toBe('r, got ["1","1"]');
    expect(engineFailure({ property: "duration", reason: "d" }, inputs, []).reason).toBe("d, got 7200");
  });

  it("cuts a long value to 80 characters with an ellipsis and its length", () => {
    const long = { pip: "a".repeat(1500), volumeSpecs: Array.from({ length: 30 }, () => ({ fileSet: "data" })) };
    expect(engineFailure({ property: "pip", reason: "p" }, long, []).reason).toBe(
      'p, got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" (1,500 characters)',
    );
    expect(engineFailure({ property: "volumeSpecs", reason: "v" }, long, []).reason).toBe(
      'v, got [{"fileSet":"data"},{"fileSet":"data"},{"fileSet":"data"},{"fileSet":"data"},{"… (571 characters of JSON)',
    );
  });

  it("shows no value under a hidden key, where there is none, or where the reason already names it", () => {
    const inputs = { envs: [{ name: "", value: "hf_secret" }], stopTime: "2020-01-01T00:00:00Z" };
    expect(engineFailure({ property: "envs[0].value", reason: "e" }, inputs, ["envs"])).toEqual({ property: "", reason: "e" });
    expect(engineFailure({ property: "userId", reason: "userId is required" }, inputs, []).reason).toBe("userId is required");
    expect(engineFailure({ property: "(inputs)", reason: "too large" }, inputs, []).reason).toBe("too large");
    expect(engineFailure({ property: "stopTime", reason: "stopTime 2020-01-01T00:00:00Z is in the past" }, inputs, []).reason).toBe(
      "stopTime 2020-01-01T00:00:00Z is in the past",
    );
  });
});

describe("the TypeScript package's provider (forKind, what the dynamic provider calls)", () => {
  it("sends each failure with its path and value in the reason, as the plugin does", async () => {
    const { forKind } = await import("../../provider/index");
    const group = { logicalName: "pool", skuId: "sku-1", podTypes: ["train"] };
    expect((await forKind("ResourceGroup").check({} as never, group as never)).failures).toEqual([
      { property: "", reason: `podTypes[0] Invalid option: expected one of "infer"|"instance"|"job", got "train"` },
    ]);
    const long = { ...group, podTypes: ["job"], description: "0123456789".repeat(200) };
    expect((await forKind("ResourceGroup").check({} as never, long as never)).failures).toEqual([
      {
        property: "",
        reason:
          "description must be at most 977 characters (the platform's 1024, less 47 for the provider's ownership mark), " +
          `got "01234567890123456789012345678901234567890123456789012345678901234567890123456…" (2,000 characters)`,
      },
    ]);
  });
});
