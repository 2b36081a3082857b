/**
 * Ctrl-C during the wait for a deleted group to stop being listed: the wait
 * ends at once with the cancelled error (the engine then keeps the group
 * recorded, as for any delete that failed), and no lookup is sent after it. Its own file: Ctrl-C ends every wait of the process for good.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cancelNow } from "../../provider/cancellation";
import { configureFrom } from "../../provider/context";
import * as resourceGroup from "../../provider/resource-group";
import { useTimings } from "../../provider/timing";
import { emulatorSettings, startTestEmulator } from "../support/emulator";

describe("Ctrl-C during a group's delete", () => {
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startTestEmulator({});
    useTimings({ pollIntervalMs: 50 });
    configureFrom(emulatorSettings(emulator, { "aicp:deleteTimeoutSeconds": "600" }));
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("ends the wait for the group to go, naming it, and sends no lookup after", async () => {
    const mark = createHash("md5").update("group-delete-cancel/team").digest("hex");
    const news = (
      await resourceGroup.check({}, { logicalName: "team", autoNameSuffix: "a1b2c3d", ownerMark: mark, skuId: "sku-1", podTypes: ["job"] } as never)
    ).inputs!;
    const group = await resourceGroup.create(news);
    // The platform keeps the deleted group listed for ten minutes.
    emulator.misbehave({ groupLingerMs: 600_000 });
    const lookups = () => emulator.requests().filter((r) => r.operation === "getResourceGroup").length;
    const outcome = resourceGroup.remove(group.id, group.outs!).catch((e: unknown) => e as Error);
    // Ctrl-C once the wait has looked a few times.
    while (lookups() < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    cancelNow();
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("cancelled (Ctrl-C)");
    expect((error as Error).message).toContain(group.id);
    const after = lookups();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lookups()).toBe(after);
    expect((error as { code?: string }).code).toBe("AICP_WAIT");
  });
});
