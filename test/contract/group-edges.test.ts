/**
 * Resource groups at the edges a platform's answers create, in-process, the
 * lifecycles called as the engine calls them against the emulator:
 * - a replacement under an unchanged pinned name that another group holds
 *   fails in diff (what the preview runs), before the old group is deleted;
 * - a refresh right after a create, on a platform that lists new groups late,
 *   keeps the group rather than dropping it (which made a second one), and
 *   its age is read from this machine's record of the create, or from a
 *   createdAt whose zone is known and that is not ahead of the clock;
 * - an update that does not see the group is refused: it would write this
 *   resource's mark over a group it never checked;
 * - a description that ends in a space reads back as the program gave it.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EmulatorClock, type Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import type { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as resourceGroup from "../../provider/resource-group";
import type { ResourceGroupInputs, ResourceGroupOutputs } from "../../provider/resource-group";
import { useTimings } from "../../provider/timing";
import { emulatorCredentials, emulatorSettings, emulatorZone, startTestEmulator } from "../support/emulator";

const markOf = (name: string) => createHash("md5").update(`group-edges/${name}`).digest("hex");
const program = (name: string, extra: Partial<ResourceGroupInputs> = {}) =>
  ({ logicalName: name, autoNameSuffix: "a1b2c3d", ownerMark: markOf(name), skuId: "sku-1", podTypes: ["job"], ...extra }) as ResourceGroupInputs;
const failure = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: AicpError) => error,
  );

describe("resource groups at the edges of the platform's answers", () => {
  let emulator: Emulator;
  let outside: AicpClient;
  const onPlatform = (rgId: string) => emulator.listResourceGroups().find((g) => g.rg_id === rgId);

  async function made(name: string, extra: Partial<ResourceGroupInputs> = {}) {
    const news = (await resourceGroup.check({}, program(name, extra))).inputs!;
    const created = await resourceGroup.create(news);
    return { id: created.id, outs: created.outs!, news };
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    useTimings({ pollIntervalMs: 20 });
    outside = new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
  });
  afterAll(async () => {
    await outside?.close();
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearMisbehaviour();
    configureFrom(emulatorSettings(emulator));
  });

  it("a replacement under its pinned name, which a group made in the console also holds, fails in diff and deletes nothing", async () => {
    const old = await made("team", { name: "team" });
    await outside.createResourceGroup({ name: "team", description: "console", sku_id: "sku-x", pod_type: ["job"], customize_enable: 0 } as never);
    const news = (await resourceGroup.check(old.outs, program("team", { name: "team", skuId: "sku-2" }))).inputs!;
    emulator.clearRequests();
    const refused = await failure(resourceGroup.diff(old.id, old.outs, news));
    expect(refused?.code).toBe("AICP_CONFLICT");
    expect(refused?.message).toContain("'team'");
    expect(onPlatform(old.id)).toBeDefined();
    expect(emulator.requests().filter((r) => r.method !== "GET" && r.operation !== "admin")).toEqual([]);
    // Without the other holder, the same replacement is planned.
    const auto = await made("solo", { name: "solo" });
    const plan = await resourceGroup.diff(
      auto.id,
      auto.outs,
      (await resourceGroup.check(auto.outs, program("solo", { name: "solo", skuId: "sku-2" }))).inputs!,
    );
    expect(plan.replaces).toEqual(["skuId"]);
  });

  it("a refresh right after the create, on a platform that lists new groups a minute late, keeps the group", async () => {
    emulator.misbehave({ listDelayMs: 60_000 });
    const young = await made("young");
    const read = await resourceGroup.read(young.id, young.outs);
    expect(read.id).toBe(young.id);
    expect(onPlatform(young.id)).toBeDefined();
    // Past the window in which a new group may appear late, two lookups that miss it mean gone.
    emulator.clearMisbehaviour();
    await outside.deleteResourceGroup(young.id);
    expect((await resourceGroup.read(young.id, young.outs)).id).toBe(young.id);
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect((await resourceGroup.read(young.id, { ...young.outs, createAnsweredAt: twentyMinutesAgo } as ResourceGroupOutputs)).id).toBe("");
  });

  it("without this machine's record of the create, a refresh counts only a createdAt whose zone is known and that is not ahead of the clock", async () => {
    const gone = await made("ahead");
    await outside.deleteResourceGroup(gone.id);
    // A state of an earlier version: no createAnsweredAt.
    const { createAnsweredAt: _recorded, ...earlier } = gone.outs;
    const at = (ms: number, zone: string) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, zone);
    // A bare UTC+8 time read as UTC (eight hours ahead, or of a group eight hours old that reads as minutes old), a bare
    // time of this process's unknown zone, a time no clock makes: each kept the group recorded for hours, or for ever.
    for (const createdAt of [at(8 * 3_600_000, ""), at(-5 * 60_000, ""), "2099-01-01T00:00:00Z"]) {
      expect((await resourceGroup.read(gone.id, { ...earlier, createdAt } as ResourceGroupOutputs)).id, createdAt).toBe("");
    }
    // Written with its zone, five minutes ago: kept, as a platform may list a new group late.
    expect((await resourceGroup.read(gone.id, { ...earlier, createdAt: at(-5 * 60_000, "Z") } as ResourceGroupOutputs)).id).toBe(gone.id);
  });

  it("an update right after the create, on a platform that lists new groups late, writes nothing and says to run up again later", async () => {
    emulator.misbehave({ listDelayMs: 60_000 });
    const young = await made("late");
    emulator.clearRequests();
    const refused = await failure(resourceGroup.update(young.id, young.outs, { ...young.news, description: "changed" }));
    expect(refused?.code).toBe("AICP_NOT_FOUND");
    expect(refused?.message).toMatch(/created \d+ s ago, and a platform may list a new group late: run `pulumi up` again in a few minutes/);
    expect(refused?.message).not.toContain("pulumi refresh");
    expect(emulator.requests().filter((r) => r.operation === "updateResourceGroup")).toEqual([]);
  });

  it("an update that does not see the group (one lookup by id and one list miss it) is refused and writes nothing", async () => {
    const shared = await made("shared", { name: "shared" });
    // Another stack's state after an import: its own mark in the program, none recorded.
    const olds = { ...shared.outs, ownerMark: undefined, logicalName: "other" } as unknown as ResourceGroupOutputs;
    const news = { ...shared.news, ownerMark: markOf("other"), logicalName: "other", description: "other's" } as ResourceGroupInputs;
    emulator.addFault({ kind: "http", status: 404, operation: "getResourceGroup", count: 1, message: "not found" } as never);
    emulator.misbehave({ omit: { name: "shared", answers: 1, unfiltered: true } });
    emulator.clearRequests();
    const refused = await failure(resourceGroup.update(shared.id, olds, news));
    expect(refused).toBeDefined();
    expect(emulator.requests().filter((r) => r.operation === "updateResourceGroup")).toEqual([]);
    expect(onPlatform(shared.id)!.description).toContain(markOf("shared"));
  });

  it("a description that ends in a space reads back as the program gave it: no change on the next preview", async () => {
    const spaced = await made("spaced", { description: "hello " });
    const read = await resourceGroup.read(spaced.id, spaced.outs);
    expect(read.props!.description).toBe("hello ");
    expect((await resourceGroup.diff(spaced.id, read.props!, spaced.news)).changes).toBe(false);
  });
});

describe("resource groups on a platform whose bare times are UTC+8, its zone not configured", () => {
  let emulator: Emulator;
  afterAll(() => emulator?.close());

  it("a refresh reads a group's age from this machine's record of its create, whatever the platform's times say", async () => {
    emulator = await startTestEmulator({ dialect: { bareTimeZone: "+08:00" }, clock: new EmulatorClock(() => Date.now() - 20 * 60_000) });
    useTimings({ pollIntervalMs: 20 });
    configureFrom(emulatorSettings(emulator));
    const news = (await resourceGroup.check({}, program("east"))).inputs!;
    const created = await resourceGroup.create(news);
    const outside = new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
    await outside.deleteResourceGroup(created.id);
    await outside.close();
    // A later command: a provider process that has learned no zone. Its createdAt reads 7 h 40 min ahead; the create was just now.
    configureFrom(emulatorSettings(emulator));
    expect((await resourceGroup.read(created.id, created.outs!)).id).toBe(created.id);
    // Twenty minutes after the create (by this machine's record), it is dropped.
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    expect((await resourceGroup.read(created.id, { ...created.outs!, createAnsweredAt: twentyMinutesAgo })).id).toBe("");
  });
});
