/**
 * How a ResourceGroup is found (provider/resource-group/lookup.ts), in-process
 * against the emulator: the name lookup takes only the exact name (the
 * platform's name filter matches parts of names), a provisional record that
 * already knows its group's id goes straight to it, and a group whose create
 * is unconfirmed is neither updated nor reported deleted while it may appear.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { configureFrom } from "../../provider/context";
import * as resourceGroup from "../../provider/resource-group";
import { useTimings } from "../../provider/timing";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";

const markOf = (name: string) => createHash("md5").update(`group-lookup/${name}`).digest("hex");

describe("finding a resource group", () => {
  let emulator: Emulator;
  const sent = (operation: string) => emulator.requests().filter((r) => r.operation === operation).length;

  async function checked(logical: string, extra: Record<string, unknown> = {}) {
    return (
      await resourceGroup.check({}, {
        logicalName: logical,
        autoNameSuffix: "a1b2c3d",
        ownerMark: markOf(logical),
        skuId: "sku-1",
        podTypes: ["job"],
        ...extra,
      } as never)
    ).inputs!;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({});
    useTimings({ pollIntervalMs: 20, createWatchMs: 100 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearRequests();
    configureFrom(emulatorSettings(emulator));
  });

  it("a group whose name merely contains the wanted one (the platform's filter matches parts) is no conflict", async () => {
    const longer = await resourceGroup.create(await checked("longer", { name: "train-pool-old" }));
    expect(emulator.listResourceGroups().some((g) => g.rg_id === longer.id)).toBe(true);
    const made = await resourceGroup.create(await checked("short", { name: "train-pool" }));
    expect(made.id).not.toBe(longer.id);
    expect(made.outs!.name).toBe("train-pool");
  });

  it("a provisional record that already names its group reads that group, with no lookup by name", async () => {
    const group = await resourceGroup.create(await checked("resolved"));
    emulator.clearRequests();
    const read = await resourceGroup.read("unconfirmed-create-0123456789abcdef", { ...group.outs!, createSentAt: new Date().toISOString() } as never);
    expect((read.props as { rgId?: string }).rgId).toBe(group.id);
    expect(sent("listResourceGroups")).toBe(0);
  });

  it("a provisional record whose group is now listed with its mark: read finds it, and an update changes that group", async () => {
    const sentAt = new Date(Date.now() - 1000).toISOString();
    const inputs = await checked("late", { name: "late-group" });
    const group = await resourceGroup.create(inputs);
    const id = "unconfirmed-create-0000000000000bbb";
    const props = { ...inputs, createSentAt: sentAt };
    const read = await resourceGroup.read(id, props as never);
    expect(read.id).toBe(group.id);
    emulator.clearRequests();
    await resourceGroup.update(id, props as never, { ...inputs, description: "now described" } as never);
    const updates = emulator.requests().filter((r) => r.operation === "updateResourceGroup");
    expect(updates).toHaveLength(1);
    expect(emulator.listResourceGroups().find((g) => g.rg_id === group.id)?.description).toMatch(/^now described/);
  });

  it("an update or destroy of a group whose create is unconfirmed and not yet listed is refused, naming it, with nothing sent", async () => {
    const inputs = await checked("lost", { name: "lost-group" });
    const props = { ...inputs, createSentAt: new Date().toISOString() };
    const id = "unconfirmed-create-fedcba9876543210";
    const update = await resourceGroup.update(id, props as never, { ...inputs, description: "changed" } as never).catch((e: unknown) => e as Error);
    expect(update).toBeInstanceOf(Error);
    expect((update as Error).message).toMatch(
      /^the create of resource group 'lost-group' sent at .* is still unconfirmed: no resource group it made is listed in this account/,
    );
    const destroy = await resourceGroup.remove(id, props as never).catch((e: unknown) => e as Error);
    expect((destroy as Error).message).toContain("is still unconfirmed");
    expect(sent("updateResourceGroup") + sent("deleteResourceGroup") + sent("createResourceGroup")).toBe(0);
  });

  it("past its window, the same operations name the record and how to remove it", async () => {
    const inputs = await checked("old", { name: "old-group" });
    const props = { ...inputs, createSentAt: "2020-01-01T00:00:00.000Z" };
    const destroy = await resourceGroup.remove("unconfirmed-create-00000000000000aa", props as never).catch((e: unknown) => e as Error);
    expect((destroy as Error).message).toContain(
      "the create of resource group 'old-group' sent at 2020-01-01T00:00:00.000Z (recorded as unconfirmed-create-00000000000000aa) has not been listed in " +
        "this account",
    );
    expect((destroy as Error).message).toContain("pulumi state delete");
  });
});

describe("finding a resource group, whatever the case of the user id", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({});
    useTimings({ pollIntervalMs: 20, createWatchMs: 100 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("an interrupted run's group is found by its mark when aicp:userId is spelt in another case than the platform's user_id", async () => {
    configureFrom(emulatorSettings(emulator, { "aicp:userId": emulatorCredentials.userId.toUpperCase() }));
    const inputs = (
      await resourceGroup.check({}, { logicalName: "cased", autoNameSuffix: "a1b2c3d", ownerMark: markOf("cased"), skuId: "sku-1", podTypes: ["job"] } as never)
    ).inputs!;
    // A Create whose answer never reached the engine (called directly: its journal entry stays), then the next run's.
    const first = await resourceGroup.create(inputs);
    const again = await resourceGroup.create(inputs);
    expect(again.id).toBe(first.id);
    expect(emulator.requests().filter((r) => r.operation === "createResourceGroup")).toHaveLength(1);
  });
});
