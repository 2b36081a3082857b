/**
 * For resource groups, in-process: the lifecycles
 * called as the engine calls them against the emulator.
 * - A deleted group the platform keeps listing (emulator switch groupLingerMs):
 *   the wait for it to go is bounded by the user's timeout (aicp:deleteTimeoutSeconds
 *   on the package, customTimeouts.delete on the plugin), and a retried delete's
 *   404 while it is still listed means "under way", not "wrong route".
 * - Another account's keys (switched by environment, as CI does): a group they
 *   cannot see is not gone; refresh and destroy fail naming the keys and the
 *   group's owner, and the group stays recorded.
 * Windows are the emulator's clock moved forward, so nothing waits real seconds.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import type { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as resourceGroup from "../../provider/resource-group";
import { provider as proto, toStruct } from "../../plugin/grpc";
import { providerServer } from "../../plugin/server";
import { emulatorCredentials, emulatorSettings, emulatorZone, startTestEmulator } from "../support/emulator";
import { reliabilityCase } from "../support/reliability";
import { useTimings } from "../../provider/timing";

/** A second account with its own keys, as another pipeline's secrets hold them. */
const OTHER = { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" };
const keyVariables = ["QY_ACCESS_KEY_ID", "QY_SECRET_ACCESS_KEY", "CORESHUB_USER_ID"] as const;
const markOf = (name: string) => createHash("md5").update(`group-safety/${name}`).digest("hex");

/** Calls the plugin's Delete as the engine does for a resource with customTimeouts.delete of `timeoutSeconds`. */
function pluginDelete(id: string, props: Record<string, unknown>, timeoutSeconds: number): Promise<void> {
  const request = new proto.DeleteRequest()
    .setId(id)
    .setUrn("urn:pulumi:ci::group-safety::aicp:index:ResourceGroup::team")
    .setProperties(toStruct(props))
    .setTimeout(timeoutSeconds);
  return new Promise((resolve, reject) => {
    const handler = providerServer.delete as (call: { request: unknown }, callback: (error: { details?: string } | null) => void) => void;
    handler({ request }, (error) => (error ? reject(new Error(error.details)) : resolve()));
  });
}

describe("resource groups: deletes that linger, and another account's keys", () => {
  let emulator: Emulator;
  const run = (name: string, body: Parameters<typeof reliabilityCase>[2]) => reliabilityCase("in-process", name, body);
  const onPlatform = (rgId: string) => emulator.listResourceGroups().some((g) => g.rg_id === rgId);
  const sent = (operation: string) => emulator.requests().filter((r) => r.operation === operation).length;

  async function made(name: string) {
    const news = (
      await resourceGroup.check({}, { logicalName: name, autoNameSuffix: "a1b2c3d", ownerMark: markOf(name), skuId: "sku-1", podTypes: ["job"] } as never)
    ).inputs!;
    const created = await resourceGroup.create(news);
    return { id: created.id, outs: created.outs! };
  }

  /** A delete the platform accepted, sent by an earlier run (its wait for the group to go failed). */
  async function deletedEarlier(rgId: string): Promise<void> {
    const client = new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
    await client.deleteResourceGroup(rgId);
    await client.close();
  }

  /** The keys of OTHER, set by environment while the stack config names none (as a CI pipeline switches them). */
  function switchKeys(userIdToo: boolean): void {
    process.env.QY_ACCESS_KEY_ID = OTHER.accessKeyId;
    process.env.QY_SECRET_ACCESS_KEY = OTHER.secretAccessKey;
    if (userIdToo) process.env.CORESHUB_USER_ID = OTHER.userId;
    const base = emulatorSettings(emulator);
    const fromEnv = new Set(["aicp:accessKeyId", "aicp:secretAccessKey", ...(userIdToo ? ["aicp:userId"] : [])]);
    configureFrom((key) => (fromEnv.has(key) ? undefined : base(key)));
  }

  /** Settles `operation`, moving the emulator's clock past `lingerMs` if it has not settled after 3 s (so a wait that is not bounded ends). */
  async function settledBeforeLingerEnds<T>(operation: Promise<T>, lingerMs: number): Promise<T | Error> {
    const timer = setTimeout(() => emulator.clock.advance(lingerMs), 3000);
    try {
      return await operation.catch((e: unknown) => e as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50, credentials: [emulatorCredentials, OTHER] });
    useTimings({ pollIntervalMs: 50 });
  });
  afterAll(async () => {
    for (const v of keyVariables) delete process.env[v];
    await emulator?.close();
  });
  beforeEach(() => {
    for (const v of keyVariables) delete process.env[v];
    emulator.clearFaults();
    emulator.clearMisbehaviour();
    emulator.clearRequests();
    configureFrom(emulatorSettings(emulator));
  });

  it("a destroy retried while the platform still lists the group an earlier destroy deleted: the 404 means under way, it waits and reports gone", () =>
    run("retried destroy of a group that stays listed after its delete", async (row) => {
      const group = await made("retried");
      emulator.misbehave({ groupLingerMs: 60_000 });
      await deletedEarlier(group.id);
      // The platform lets the group go while the retry waits.
      const timer = setTimeout(() => emulator.clock.advance(60_000), 300);
      const outcome = await resourceGroup.remove(group.id, group.outs).catch((e: unknown) => e as Error);
      clearTimeout(timer);
      row.orphans += onPlatform(group.id) ? 1 : 0;
      expect(outcome).toBeUndefined();
      expect(onPlatform(group.id)).toBe(false);
    }));

  it("the wait for a deleted group to stop being listed is bounded by aicp:deleteTimeoutSeconds, not a fixed 30 s; the retry then completes", () =>
    run("destroy of a lingering group, package timeout", async (row) => {
      configureFrom(emulatorSettings(emulator, { "aicp:deleteTimeoutSeconds": "0.2" }));
      const group = await made("bounded");
      emulator.misbehave({ groupLingerMs: 60_000 });
      const first = await settledBeforeLingerEnds(resourceGroup.remove(group.id, group.outs), 60_000);
      expect(first).toBeInstanceOf(Error);
      expect((first as AicpError).code).toBe("AICP_WAIT");
      expect((first as Error).message).toContain("aicp:deleteTimeoutSeconds");
      emulator.clock.advance(60_000);
      await resourceGroup.remove(group.id, group.outs);
      row.orphans += onPlatform(group.id) ? 1 : 0;
      expect(sent("deleteResourceGroup")).toBe(2);
    }));

  it("through the plugin, the wait is bounded by the customTimeouts.delete the engine passes", () =>
    run("destroy of a lingering group, plugin customTimeouts", async (row) => {
      const group = await made("plugin");
      emulator.misbehave({ groupLingerMs: 60_000 });
      const first = await settledBeforeLingerEnds(pluginDelete(group.id, group.outs, 0.2), 60_000);
      expect(first).toBeInstanceOf(Error);
      expect((first as Error).message).toMatch(/AICP_WAIT/);
      emulator.clock.advance(60_000);
      await pluginDelete(group.id, group.outs, 0.2);
      row.orphans += onPlatform(group.id) ? 1 : 0;
      expect(onPlatform(group.id)).toBe(false);
    }));

  it(
    "a delete answered 404 in the platform's envelope while the group stays listed for the whole timeout: the error says both possibilities and the group " +
      "stays recorded",
    () =>
      run("delete answered 404 while the group lives on", async (row) => {
        configureFrom(emulatorSettings(emulator, { "aicp:deleteTimeoutSeconds": "0.2" }));
        const group = await made("live");
        emulator.addFault({ kind: "http", status: 404, operation: "deleteResourceGroup", message: "resource group not found" });
        const outcome = await resourceGroup.remove(group.id, group.outs).catch((e: unknown) => e as Error);
        row.dropped += outcome instanceof Error ? 0 : 1;
        expect(outcome).toBeInstanceOf(Error);
        expect((outcome as AicpError).code).toBe("AICP_ROUTE");
        expect((outcome as Error).message).toContain("aicp:routes.deleteResourceGroup");
        expect((outcome as Error).message).toContain("earlier delete");
        expect(onPlatform(group.id)).toBe(true);
        emulator.clearFaults();
        await resourceGroup.remove(group.id, group.outs);
      }),
  );

  it("refresh with another account's keys (keys and user id switched by environment) keeps the group and names the keys and its owner", () =>
    run("refresh of a group with another account's keys", async (row) => {
      const group = await made("refreshed");
      switchKeys(true);
      const outcome = await resourceGroup.read(group.id, group.outs).catch((e: unknown) => e as Error);
      row.dropped += !(outcome instanceof Error) && outcome.id === "" && onPlatform(group.id) ? 1 : 0;
      expect(outcome).toBeInstanceOf(Error);
      const message = (outcome as Error).message;
      for (const named of [
        "aicp:accessKeyId",
        "QY_ACCESS_KEY_ID",
        "aicp:secretAccessKey",
        "QY_SECRET_ACCESS_KEY",
        "aicp:userId",
        "CORESHUB_USER_ID",
        emulatorCredentials.userId,
      ]) {
        expect(message).toContain(named);
      }
      expect(onPlatform(group.id)).toBe(true);
    }));

  it("destroy with another account's keys is refused, nothing is sent to delete, and the group lives on; with the owner's keys it goes", () =>
    run("destroy of a group with another account's keys", async (row) => {
      const group = await made("destroyed");
      switchKeys(true);
      const outcome = await resourceGroup.remove(group.id, group.outs).catch((e: unknown) => e as Error);
      row.dropped += outcome instanceof Error ? 0 : 1;
      row.orphans += outcome instanceof Error ? 0 : 1;
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toContain(emulatorCredentials.userId);
      expect(sent("deleteResourceGroup")).toBe(0);
      expect(onPlatform(group.id)).toBe(true);
      for (const v of keyVariables) delete process.env[v];
      configureFrom(emulatorSettings(emulator));
      await resourceGroup.remove(group.id, group.outs);
      expect(onPlatform(group.id)).toBe(false);
    }));

  it("a state that records no owner (no userId output), keys and user id switched by environment: refresh keeps the group and says how to clear it", () =>
    run("refresh of an older state's group with another account's keys and user id", async (row) => {
      const group = await made("older");
      const { userId: _owner, ...older } = group.outs as Record<string, unknown>;
      switchKeys(true);
      const outcome = await resourceGroup.read(group.id, older as never).catch((e: unknown) => e as Error);
      row.dropped += !(outcome instanceof Error) && outcome.id === "" && onPlatform(group.id) ? 1 : 0;
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toContain("pulumi state delete");
      expect(onPlatform(group.id)).toBe(true);
    }));

  it(
    "a platform that answers another account's namespace with the caller's own (empty) list: the requesting user it names is not the owner, refresh keeps " +
      "the group",
    () =>
      run("refresh with another account's keys, namespace ignored by the platform", async (row) => {
        const group = await made("ignored-namespace");
        switchKeys(true);
        const original = AicpClient.prototype.listNotebooks;
        const spy = vi.spyOn(AicpClient.prototype, "listNotebooks").mockImplementation(function (
          this: AicpClient,
          _namespace: string,
          query?: Parameters<AicpClient["listNotebooks"]>[1],
        ) {
          return original.call(this, OTHER.userId.toLowerCase(), query);
        });
        try {
          const outcome = await resourceGroup.read(group.id, group.outs).catch((e: unknown) => e as Error);
          row.dropped += !(outcome instanceof Error) && outcome.id === "" && onPlatform(group.id) ? 1 : 0;
          expect(outcome).toBeInstanceOf(Error);
          expect((outcome as Error).message).toContain(OTHER.userId);
        } finally {
          spy.mockRestore();
        }
        expect(onPlatform(group.id)).toBe(true);
      }),
  );

  it("with the owner's keys, a group deleted out of band is still gone for refresh and destroy", async () => {
    const group = await made("outofband");
    await deletedEarlier(group.id);
    // Made longer ago than a platform may take to list a new group (group-edges.test.ts keeps a younger one).
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect((await resourceGroup.read(group.id, { ...group.outs, createAnsweredAt: anHourAgo } as typeof group.outs)).id).toBe("");
    await resourceGroup.remove(group.id, group.outs);
  });
});
