/**
 * Resource lifecycles in-process against the emulator over real HTTP: the
 * scenarios that decide whether a user ever pays for a duplicate notebook or
 * loses track of one.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import * as resourceGroup from "../../provider/resource-group";
import { emulatorCredentials, emulatorSettings, requestsInFlight, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { eventually } from "../support/poll";
import { useTimings } from "../../provider/timing";

const user = emulatorCredentials.userId;

describe("lifecycles against the emulator", () => {
  let emulator: Emulator;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === user);
  const writes = (operation: string) => emulator.requests().filter((r) => r.operation === operation);
  const inFlight = () => requestsInFlight(emulator);

  // What the SDK derives for each resource: a mark of 32 hex characters, one per resource.
  const markOf = (name: string) => createHash("md5").update(`test-stack/${name}`).digest("hex");
  const inputs = (name: string, extra: Partial<NotebookInputs> = {}): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "abc1234", ownerMark: markOf(name), ...extra });

  async function checked(news: NotebookInputs) {
    const result = await notebook.check({}, news);
    expect(result.failures).toBeUndefined();
    return result.inputs!;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    useTimings({ pollIntervalMs: 50 });
    configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "0.5" }));
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearRequests();
    for (const n of own()) emulator.deleteNotebook(String(n.uuid));
  });

  it("does not send a create twice when its answer times out: it finds the notebook instead", async () => {
    emulator.addFault({ kind: "latency", latencyMs: 800, operation: "createNotebook", count: 1 });
    const result = await notebook.create(await checked(inputs("slow")));
    expect(writes("createNotebook")).toHaveLength(1);
    expect(own()).toHaveLength(1);
    expect(result.id).toBe(own()[0]!.uuid);
  });

  it("adopts the notebook an interrupted run created under the same auto-name", async () => {
    const first = await notebook.create(await checked(inputs("again")));
    emulator.clearRequests();
    const second = await notebook.create(await checked(inputs("again")));
    expect(second.id).toBe(first.id);
    expect(writes("createNotebook")).toHaveLength(0);
    expect(own()).toHaveLength(1);
  });

  it("refuses a pinned name that already exists instead of taking that notebook over, at check (the preview) and at create", async () => {
    const mine = await checked(inputs("mine", { name: "shared" }));
    await notebook.create(await checked(inputs("theirs", { name: "shared" })));
    emulator.clearRequests();
    const atCheck = (await notebook.check({}, inputs("mine", { name: "shared" })).catch((e: unknown) => e)) as AicpError;
    expect(atCheck.code).toBe("AICP_CONFLICT");
    const error = (await notebook.create(mine).catch((e: unknown) => e)) as AicpError;
    expect(error.message).toBe(atCheck.message);
    expect(error.code).toBe("AICP_CONFLICT");
    expect(error.message).toContain("already holds a notebook named 'shared'");
    expect(error.message).toContain(String(own()[0]!.uuid));
    expect(writes("createNotebook")).toHaveLength(0);
  });

  it("does not restart a notebook the platform stopped when only the auto-delete time changes", async () => {
    const news = await checked(inputs("scheduled"));
    const created = await notebook.create(news);
    const ns = String(news.namespace);
    const { AicpClient } = await import("../../client/client");
    const client = new AicpClient({ baseUrl: emulator.url, zone: "xb3", credentials: emulatorCredentials });
    await client.stopNotebooks(ns, [created.id]);
    await client.close();
    emulator.clearRequests();
    const changed = { ...news, autoDeleteTime: "2031-01-01T00:00:00Z" };
    await notebook.update(created.id, created.outs!, changed);
    expect(writes("startNotebooks")).toHaveLength(0);
    expect(writes("setDeleteTime")).toHaveLength(1);
  });

  it("a new size for a notebook kept Stopped waits for its next start: it is never started, and then sees no change", async () => {
    const news = await checked(inputs("resized", { desiredState: "Stopped" }));
    const created = await notebook.create(news);
    expect(own()[0]!.status).toBe("Stopped");
    const bigger = { ...news, replicaSpecs: { specs: "sku-1", customGpu: 2 } };
    expect((await notebook.diff(created.id, created.outs!, bigger)).changes).toBe(true);
    const before = writes("startNotebooks").length;
    const updated = await notebook.update(created.id, created.outs!, bigger);
    expect(writes("startNotebooks")).toHaveLength(before);
    expect(own()[0]).toMatchObject({ status: "Stopped" });
    expect((await notebook.diff(created.id, updated.outs!, bigger)).changes).toBe(false);
    const refreshed = await notebook.read(created.id, updated.outs!);
    expect((await notebook.diff(created.id, refreshed.props!, bigger)).changes).toBe(false);
    const running = { ...bigger, desiredState: "Running" as const };
    await notebook.update(created.id, refreshed.props!, running);
    expect(own()[0]).toMatchObject({ status: "Running" });
    expect((own()[0]!.replica_specs as Record<string, unknown>).custom_gpu).toBe(2);
  });

  it("finds a group whose create answer was lost instead of leaving it orphaned", async () => {
    const news = (
      await resourceGroup.check({}, { logicalName: "lost", autoNameSuffix: "def5678", ownerMark: markOf("lost"), skuId: "sku-1", podTypes: ["job"] } as never)
    ).inputs!;
    emulator.addFault({ kind: "latency", latencyMs: 800, operation: "createResourceGroup", count: 1 });
    const created = await resourceGroup.create(news).catch((e: unknown) => e);
    // The answer timed out; the group appears once the platform finishes.
    await eventually(() => emulator.listResourceGroups().some((g) => g.name === news.name), `group ${String(news.name)} to be made`);
    const retried = created instanceof Error ? await resourceGroup.create(news) : (created as Awaited<ReturnType<typeof resourceGroup.create>>);
    const mine = emulator.listResourceGroups().filter((g) => g.name === news.name);
    expect(mine).toHaveLength(1);
    expect(retried.id).toBe(mine[0]!.rg_id);
    expect(writes("createResourceGroup")).toHaveLength(1);
  });

  it("destroy succeeds when the notebook goes away while its stop request is in flight (a 404 on a delete step, confirmed)", async () => {
    const created = await notebook.create(await checked(inputs("racing")));
    emulator.addFault({ kind: "latency", latencyMs: 400, operation: "stopNotebooks", count: 1 });
    const removal = notebook.remove(created.id, created.outs!);
    await eventually(async () => (await inFlight()) > 0, "the stop request to reach the platform");
    expect(emulator.deleteNotebook(created.id)).toBe(true);
    await expect(removal).resolves.toBeUndefined();
    // Each stop sent (one, or a retry where a loaded machine let the first pass the 0.5 s timeout) was told 404.
    const stops = writes("stopNotebooks").map((r) => r.status);
    expect(stops.length).toBeGreaterThan(0);
    expect(new Set(stops)).toEqual(new Set([404]));
    expect(own()).toEqual([]);
  });

  it("destroy still fails when a delete step says 'not found' but the notebook is there", async () => {
    const created = await notebook.create(await checked(inputs("lying")));
    emulator.addFault({ kind: "http", status: 404, operation: "stopNotebooks", count: 1 });
    const error = (await notebook.remove(created.id, created.outs!).catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.status).toBe(404);
    expect(own().map((n) => n.uuid)).toEqual([created.id]);
  });

  it("refuses in check a notebook whose create body would pass 1 MiB, naming the limit", async () => {
    const envs = Array.from({ length: 20 }, (_, i) => ({ name: `BIG_${i}`, value: "x".repeat(60_000) }));
    const result = await notebook.check({}, inputs("huge", { envs }));
    expect(result.failures?.map((f) => f.reason).join("\n")).toMatch(/at most 1,048,576 \(1 MiB\)/);
  });

  it("reports a 413 from the platform as a refusal (nothing processed), not as an outcome to look for", async () => {
    const { AicpClient } = await import("../../client/client");
    const client = new AicpClient({ baseUrl: emulator.url, zone: "xb3", credentials: emulatorCredentials });
    const body = {
      ...(await import("../../provider/notebook/inputs")).wireBody(await checked(inputs("oversized"))),
      envs: Array.from({ length: 20 }, (_, i) => ({ name: `BIG_${i}`, value: "y".repeat(60_000) })),
    };
    const error = (await client.createNotebook(body).catch((e: unknown) => e)) as AicpError;
    await client.close();
    expect(error).toBeInstanceOf(AicpError);
    expect(error.status).toBe(413);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain("larger than the platform accepts");
    expect(writes("createNotebook").map((r) => r.status)).toEqual([413]);
    expect(own()).toEqual([]);
  });

  it("marks every notebook it creates with the resource's mark, its send time and its place, and keeps them out of the envs it reports", async () => {
    const before = Date.now();
    const created = await notebook.create(await checked(inputs("marked", { envs: [{ name: "A", value: "1" }] })));
    const envs = own()[0]!.envs as Array<{ name: string; value: string }>;
    expect(envs.slice(0, 2)).toEqual([
      { name: "A", value: "1" },
      { name: "PULUMI_AICP_MARK", value: markOf("marked") },
    ]);
    expect(envs[2]!.name).toBe("PULUMI_AICP_CREATE_SENT_AT");
    const stated = Date.parse(envs[2]!.value);
    expect(stated).toBeGreaterThanOrEqual(before);
    expect(stated).toBeLessThanOrEqual(Date.now());
    // The auto-name suffix the inputs carry: the resource's place in its stack.
    expect(envs[3]).toEqual({ name: "PULUMI_AICP_PLACE", value: "abc1234" });
    expect(envs).toHaveLength(4);
    expect(created.outs!.envs).toEqual([{ name: "A", value: "1" }]);
    const read = await notebook.read(created.id, created.outs!);
    expect(read.props!.envs).toEqual([{ name: "A", value: "1" }]);
  });

  it("removes a Failed notebook of its own before creating again, so none is left behind", async () => {
    const failing = await notebook.create(await checked(inputs("flaky", { image: "jupyter:does-not-exist" }))).catch((e: unknown) => e);
    expect(String(failing)).toContain("failed");
    expect(own().map((n) => n.status)).toEqual(["Failed"]);
    const fixed = await notebook.create(await checked(inputs("flaky")));
    expect(own().map((n) => [n.uuid, n.status])).toEqual([[fixed.id, "Running"]]);
    expect(writes("setDeleteTime")).toHaveLength(1);
  });

  it("an adopted notebook (made by an interrupted run, before the program changed) gets the program's in-place changes", async () => {
    const first = await notebook.create(await checked(inputs("changed", { stopTime: "2031-01-01T00:00:00Z" })));
    emulator.clearRequests();
    const adopted = await notebook.create(await checked(inputs("changed", { stopTime: "2032-02-02T00:00:00Z", image: "jupyter:2" })));
    expect(adopted.id).toBe(first.id);
    expect(writes("createNotebook")).toHaveLength(0);
    expect(own().map((n) => [n.uuid, n.image, String(n.stop_time).slice(0, 10)])).toEqual([[first.id, "jupyter:2", "2032-02-02"]]);
  });

  it("an adopted notebook whose program now asks for a replacement is recorded, not changed, with the reason", async () => {
    const first = await notebook.create(await checked(inputs("moved")));
    emulator.clearRequests();
    const error = (await notebook.create(await checked(inputs("moved", { serverType: "rstudio" }))).catch((e: unknown) => e)) as Error & { id?: string };
    expect(error.id).toBe(first.id);
    expect(error.message).toContain("differs from the program in serverType");
    expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  /** Polls the emulator until our one notebook satisfies `condition`. */
  const until = (condition: (nb: Record<string, unknown>) => boolean) =>
    eventually(() => condition(own()[0] ?? {}), `the notebook to satisfy ${condition.toString()}`);

  it("an image change or resize of a notebook its own stop time stopped leaves it stopped; a size then waits for the next start", async () => {
    const soon = new Date(Date.now() + 1500).toISOString().replace(/\.\d{3}Z$/, "Z");
    const news = await checked(inputs("scheduled-stop", { stopTime: soon }));
    const created = await notebook.create(news);
    await until((nb) => nb.status === "Stopped");
    const stopped = (await notebook.read(created.id, created.outs!)).props!;
    emulator.clearRequests();
    const changed = { ...news, image: "jupyter:2", replicaSpecs: { specs: "sku-1", customGpu: 2 } };
    const updated = await notebook.update(created.id, stopped, changed);
    expect(writes("startNotebooks")).toHaveLength(0);
    expect(own()[0]).toMatchObject({ status: "Stopped", image: "jupyter:2" });
    expect((await notebook.diff(created.id, updated.outs!, changed)).changes).toBe(false);
  });

  it("an unrelated update of a parked notebook keeps the size that waits for its next start", async () => {
    const news = await checked(inputs("parked", { desiredState: "Stopped" }));
    const created = await notebook.create(news);
    const bigger = { ...news, replicaSpecs: { specs: "sku-1", customGpu: 2 } };
    const resized = await notebook.update(created.id, created.outs!, bigger);
    const later = { ...bigger, stopTime: "2031-01-01T00:00:00Z" };
    const updated = await notebook.update(created.id, resized.outs!, later);
    expect(writes("startNotebooks")).toHaveLength(0);
    expect((await notebook.diff(created.id, updated.outs!, later)).changes).toBe(false);
  });

  it("adoptId is read only at create: an existing resource's check drops it, so a replacement creates instead of adopting", async () => {
    const news = await checked(inputs("adopted-once"));
    const result = await notebook.check(news, { ...inputs("adopted-once"), adoptId: "nb-someone-else" });
    expect(result.failures).toBeUndefined();
    expect(result.inputs!.adoptId).toBeUndefined();
  });

  it("a take-over whose lookup fails is refused in check, naming adoptId, so no wrong name is recorded", async () => {
    emulator.addFault({ kind: "http", status: 503, operation: "listNotebooks", count: 50 });
    const result = await notebook.check({}, { ...inputs("adopt-lookup"), adoptId: "nb-0123456789ab" });
    expect(result.failures?.[0]).toMatchObject({ property: "adoptId", reason: expect.stringContaining("cannot take over nb-0123456789ab") });
  });
});
