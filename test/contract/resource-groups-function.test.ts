/**
 * getResourceGroups against the emulator over real HTTP, from the TypeScript
 * package, with its configuration read from the stack config (PULUMI_CONFIG)
 * as in a program. The expected groups are the ones this test made, by the
 * ids their create answers gave; the platform's own groups are not listed.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import type { AicpError } from "../../client/errors";
import * as aicp from "../../sdk";
import { emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { PlatformWriter } from "../support/platform-writer";

function resolve<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((done) => output.apply((v) => done(v)));
}

describe("getResourceGroups", () => {
  let emulator: Emulator;
  let client: PlatformWriter;
  /** Name -> rg_id, as the create answers gave them. */
  const made = new Map<string, string>();
  const names = [...Array.from({ length: 101 }, (_, i) => `batch-${String(i).padStart(3, "0")}`), "Team-Alpha", "team-beta"];

  beforeAll(async () => {
    emulator = await startTestEmulator();
    process.env.PULUMI_CONFIG = JSON.stringify(Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value])));
    client = new PlatformWriter({ baseUrl: emulator.url, zone: "xb3", credentials: emulatorCredentials });
    for (const name of names) {
      const group = await client.createResourceGroup({
        name,
        description: `${name} group`,
        sku_id: "sku-1",
        pod_type: ["job", "instance"],
        customize_enable: 1,
      });
      made.set(name, group.rg_id);
      emulator.clock.advance(1000);
    }
  });

  afterAll(async () => {
    delete process.env.PULUMI_CONFIG;
    await client?.close();
    await emulator?.close();
  });

  it("pages through every group of the account (more than one page of 100), each as created", async () => {
    const { groups } = await aicp.getResourceGroups();
    expect(Object.fromEntries(groups.map((g) => [g.name, g.rgId]))).toEqual(Object.fromEntries(made));
    const alpha = groups.find((g) => g.name === "Team-Alpha")!;
    expect(alpha).toMatchObject({ description: "Team-Alpha group", podType: ["job", "instance"], skuId: "sku-1" });
  });

  it("filters by part of the name in any case, and sorts as asked, in both forms", async () => {
    const { groups } = await aicp.getResourceGroups({ searchWord: "TEAM", orderBy: "name", reverse: true });
    expect(groups.map((g) => g.rgId)).toEqual([made.get("team-beta"), made.get("Team-Alpha")]);
    const output = await resolve(aicp.getResourceGroupsOutput({ searchWord: pulumi.output("beta") }));
    expect(output.groups.map((g) => g.name)).toEqual(["team-beta"]);
  });

  it("reads one page when offset or limit is given", async () => {
    emulator.clearRequests();
    const { groups } = await aicp.getResourceGroups({ offset: 100, limit: 10 });
    expect(groups.map((g) => g.name)).toEqual(["batch-100", "Team-Alpha", "team-beta"]);
    expect(emulator.requests().filter((r) => r.operation === "listResourceGroups")).toHaveLength(1);
  });

  it("leaves out the ownership mark the provider writes into a group's description", async () => {
    const marked = await client.createResourceGroup({
      name: "marked-group",
      description: "team group [pulumi-aicp 0123456789abcdef0123456789abcdef]",
      sku_id: "sku-1",
      pod_type: ["job"],
      customize_enable: 0,
    });
    const { groups } = await aicp.getResourceGroups({ searchWord: "marked-group" });
    expect(groups.map((g) => [g.rgId, g.description])).toEqual([[marked.rg_id, "team group"]]);
  });

  it("names the route to override when the platform does not serve the list", async () => {
    emulator.setDialect({ absentOperations: ["listResourceGroups"] });
    try {
      const error = (await aicp.getResourceGroups().catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_ROUTE");
      expect(error.message).toContain("aicp:routes.listResourceGroups");
    } finally {
      emulator.setDialect({ absentOperations: [] });
    }
  });

  it("rejects a page size the platform does not serve naming the argument, before any request", async () => {
    emulator.clearRequests();
    const error = (await aicp.getResourceGroups({ limit: 500 }).catch((e: unknown) => e)) as AicpError;
    expect(error.code).toBe("AICP_VALIDATION");
    expect(error.message).toMatch(/limit.*at most 100/);
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  });
});
