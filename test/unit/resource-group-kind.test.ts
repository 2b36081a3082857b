/**
 * The ResourceGroup kind is described once (client/wire/resource-group.ts
 * resourceGroupKind): the SDK's declared outputs, the bodies sent, the
 * outputs recorded and check's property names all follow that description.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createResourceGroupRequest,
  groupCreateRequest,
  groupProgramOf,
  groupUpdateRequest,
  resourceGroup,
  resourceGroupKind,
} from "../../client/wire/resource-group";
import * as lifecycle from "../../provider/resource-group";
import { declaredOutputs } from "../support/declared-keys";

describe("the ResourceGroup kind", () => {
  it("the SDK class declares exactly the described outputs (program fields and what the platform adds)", () => {
    const described = [...Object.keys(resourceGroupKind.fields), ...resourceGroupKind.platformOutputs].sort();
    expect(declaredOutputs(resolve("sdk/resource-group.ts"), "ResourceGroup")).toEqual(described);
    // What the platform adds, spelled here by hand: the oracle for the derivation from the response schema.
    expect([...resourceGroupKind.platformOutputs].sort()).toEqual([
      "createdAt",
      "reason",
      "resourceType",
      "rgId",
      "rootUserId",
      "status",
      "updatedAt",
      "userId",
    ]);
  });

  it("every field of the create request is described, and the body a program produces is what the schema accepts", () => {
    const described = Object.values(resourceGroupKind.fields)
      .map((f) => f.wire)
      .sort();
    expect(Object.keys(createResourceGroupRequest.shape).sort()).toEqual(described);
    const body = groupCreateRequest({ name: "team", skuId: "sku-1", podTypes: ["job", "instance"], customizeEnable: true }, "text");
    expect(body).toEqual({ name: "team", description: "text", sku_id: "sku-1", pod_type: ["job", "instance"], customize_enable: 1 });
    expect(createResourceGroupRequest.safeParse(body).success).toBe(true);
    expect(groupUpdateRequest("rg-1", { name: "team", skuId: "sku-1", podTypes: ["job"] }, "")).toEqual({
      rg_id: "rg-1",
      name: "team",
      description: "",
      pod_type: ["job"],
      customize_enable: 0,
    });
  });

  it("reads an answer back in the program's form: the comma-separated pod types as a list, the flag as a boolean", () => {
    const answer = resourceGroup.parse({ rg_id: "rg-1", name: "team", pod_type: "infer,job", customize_enable: 1, sku_id: "sku-1" });
    expect(groupProgramOf(answer)).toEqual({ name: "team", description: undefined, skuId: "sku-1", podTypes: ["infer", "job"], customizeEnable: true });
  });

  it("check names the program's properties (podTypes, customizeEnable), never the wire's", async () => {
    const result = await lifecycle.check(
      {},
      { logicalName: "g", autoNameSuffix: "abc1234", skuId: "", podTypes: [] as never, customizeEnable: "yes" as never },
    );
    const properties = (result.failures ?? []).map((f) => f.property).sort();
    expect(properties).toEqual(["customizeEnable", "podTypes", "skuId"]);
    expect(JSON.stringify(result.failures)).not.toMatch(/pod_type|sku_id|customize_enable|podType\b/);
  });
});

describe("the ResourceGroup kind's check", () => {
  it("names a list item by its index, as the program spells it (podTypes[0])", async () => {
    const result = await lifecycle.check({}, { logicalName: "g", autoNameSuffix: "abc1234", skuId: "sku-1", podTypes: ["gpu"] as never });
    expect((result.failures ?? []).map((f) => f.property)).toEqual(["podTypes[0]"]);
  });
});
