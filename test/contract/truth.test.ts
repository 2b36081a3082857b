/**
 * What Pulumi shows is what the platform has, through the
 * in-process engine (test/support/engine/stack.ts: the plugin's gRPC service
 * called by the engine's rules): a notebook that fails is never reported as
 * updated or unchanged, drift made outside Pulumi is recorded by refresh and
 * named by preview, and nothing restarts a notebook the program did not ask
 * to restart. Out-of-band changes are made as a console would: signed
 * requests to the platform's own operations (or the emulator's admin API for
 * a crash). The lifecycles beneath are the TypeScript SDK's too
 * (provider/index.ts forKind).
 */
import { afterAll, describe, expect, it } from "vitest";
import { emulatorCredentials } from "../support/emulator";
import { failed, inProcessCases, ops, research } from "../support/engine/notebook-stack";
import { inSeconds, NS, until } from "../support/platform-console";

const badImage = { image: "jupyter:does-not-exist" };

describe("what Pulumi shows is what the platform has (in-process engine)", () => {
  const cases = inProcessCases();
  const setUp = cases.setUp;
  afterAll(() => cases.dispose());

  it("an image that cannot be pulled fails the up with the platform's reason, and the next up tries again instead of reporting success", async () => {
    const c = await setUp({}, { timings: { staleFailedMs: 300 } });
    await c.stack.up(research());
    const up = await failed(c.stack.up(research(badImage)));
    expect(up.text).toContain("ErrImagePull");
    expect(c.notebook().status).toBe("Failed");
    c.emulator.clearRequests();
    const again = await failed(c.stack.up(research(badImage)));
    expect(again.text).toContain("ErrImagePull");
    expect(ops(again.result)).toEqual(["research:update"]);
    expect(c.sent("startNotebooks")).toBe(1);
  });

  it("a create that failed, then up with no change: fails again with the reason, never 'updated'", async () => {
    const c = await setUp({}, { timings: { staleFailedMs: 300 } });
    await failed(c.stack.up(research(badImage)));
    const again = await failed(c.stack.up(research(badImage)));
    expect(again.text).toContain("ErrImagePull");
    // Recorded with its failure still, so the next up tries again too.
    expect(c.stack.find("research")!.initErrors.join("\n")).toContain("ErrImagePull");
  });

  it("raising readyTimeoutSeconds after a timeout, as the error advises, waits for Running", async () => {
    // Ready 10 min (of the emulator's clock) after its create: only a wait that lasts until the clock moves sees Running.
    const c = await setUp({ notebookReadyDelayMs: 600_000 });
    const first = await failed(c.stack.up(research({ readyTimeoutSeconds: 1 })));
    expect(first.text).toContain("readyTimeoutSeconds");
    c.emulator.clearRequests();
    const up = c.stack.up(research({ readyTimeoutSeconds: 60 }));
    for (let i = 0; i < 800 && c.sent("listNotebooks") < 3; i++) await new Promise((r) => setTimeout(r, 25));
    expect(c.sent("listNotebooks"), "the up should be waiting").toBeGreaterThanOrEqual(3);
    c.emulator.clock.advance(600_000);
    await up;
    expect(c.stack.outputs.status).toBe("Running");
  });

  it("a notebook that goes Running then Failed: refresh records it, preview names it, up starts it again", async () => {
    const c = await setUp();
    await c.stack.up(research());
    expect(c.emulator.failNotebook(String(c.notebook().uuid), "OOMKilled")).toBe(true);
    await c.stack.refresh();
    expect(c.stack.find("research")!.inputs.desiredState).toBe("Failed");
    const preview = await c.stack.preview(research());
    expect(preview.steps).toMatchObject([{ name: "research", op: "update", diffs: expect.arrayContaining(["desiredState"]) }]);
    await c.stack.up(research());
    expect(c.notebook().status).toBe("Running");
  });

  it("status words in another case are known; an unknown one is waited for, bounded, and named", async () => {
    const c = await setUp();
    c.emulator.misbehave({ statusWords: { Running: "running", Pending: "Starting" } });
    await c.stack.up(research({ readyTimeoutSeconds: 20 }));
    c.emulator.misbehave({ statusWords: { Running: "Healthy", Pending: "Starting" } });
    const unknown = await failed(c.stack.up(research({ readyTimeoutSeconds: 1, image: "jupyter:2" })));
    expect(unknown.text).toContain('"Healthy" is not a status the provider knows');
  });

  it("changes made in the console are named by preview after refresh: stop, stop time, image", async () => {
    const c = await setUp();
    const program = research({ stopTime: "2031-01-01T00:00:00Z" });
    await c.stack.up(program);
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/stop`, { uuids: [uuid] })).json.ret_code).toBe(0);
    expect((await c.console.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "2032-06-01T00:00:00Z" })).json.ret_code).toBe(0);
    expect((await c.console.post(`${NS}/notebooks/change_image`, { uuid, image: "jupyter:9", image_type: "official" })).json.ret_code).toBe(0);
    await c.stack.refresh();
    // What preview shows as the old values (`stopTime: "2032-06-01…" => "2031-01-01…"`): what refresh recorded.
    const recorded = c.stack.find("research")!.inputs;
    expect(recorded).toMatchObject({ image: "jupyter:9", desiredState: "Stopped" });
    expect(String(recorded.stopTime)).toMatch(/^2032-06-01T00:00:00(Z|\+00:00)?$/);
    const preview = await c.stack.preview(program);
    expect(preview.steps).toMatchObject([{ name: "research", op: "update" }]);
    expect(preview.steps[0]!.diffs).toEqual(expect.arrayContaining(["stopTime", "image", "desiredState"]));
  });

  it('ignoreChanges: ["stopTime"] keeps a stop time set in the console, also after refresh', async () => {
    const c = await setUp();
    const program = research({ stopTime: "2031-01-01T00:00:00Z" }, { ignoreChanges: ["stopTime"] });
    await c.stack.up(program);
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "2032-06-01T00:00:00Z" })).json.ret_code).toBe(0);
    await c.stack.refresh();
    c.emulator.clearRequests();
    await c.stack.up(program);
    expect(c.sent("setStopTime")).toBe(0);
    expect(String(c.notebook().stop_time)).toMatch(/^2032-06-01T00:00:00/);
  });

  it("a stop at the notebook's own stop time is not drift: refresh and up leave it stopped", async () => {
    const c = await setUp();
    // The provider judges a stop time against the machine's clock, so this one comes in real time (2 to 3 s,
    // so that it is still ahead when the up checks it on a loaded machine).
    const program = research({ stopTime: inSeconds(3) });
    await c.stack.up(program);
    await until(c, (nb) => nb.status === "Stopped");
    await c.stack.refresh();
    expect(ops(await c.stack.preview(program))).toEqual(["research:same"]);
    c.emulator.clearRequests();
    await c.stack.up(program);
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Stopped");
  });

  it("rotating the access key changes nothing for a notebook with a registry password", async () => {
    const rotated = { accessKeyId: "AKIDROTATED", secretAccessKey: "rotated-secret", userId: emulatorCredentials.userId };
    const c = await setUp({ credentials: [emulatorCredentials, rotated] });
    const program = research({ imageType: "custom", customImageSecret: { hasAuth: true, username: "bot", password: "registry-pass-1" } });
    await c.stack.up(program);
    Object.assign(c.stack.options.config, { accessKeyId: rotated.accessKeyId, secretAccessKey: rotated.secretAccessKey });
    expect(ops(await c.stack.preview(program))).toEqual(["research:same"]);
  });

  it("a resize the platform refuses puts the notebook back; reverting the program then changes nothing and it runs", async () => {
    const c = await setUp();
    await c.stack.up(research());
    const refused = await failed(c.stack.up(research({ replicaSpecs: { specs: "sku-2", rgId: "rg-nowhere", customCpu: 4 } })));
    expect(refused.text).toContain("refused the new size");
    await c.stack.up(research());
    await until(c, (nb) => nb.status === "Running");
    expect(c.notebook().replica_specs).toMatchObject({ specs: "sku-1", custom_cpu: 2 });
  });

  it("resizing a parked notebook keeps it parked; the size applies at its next start", async () => {
    const c = await setUp();
    const parked = (cpu: number) => research({ desiredState: "Stopped", replicaSpecs: { specs: "sku-1", customCpu: cpu } });
    await c.stack.up(parked(2));
    c.emulator.clearRequests();
    await c.stack.up(parked(8));
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Stopped");
    await c.stack.refresh();
    expect(ops(await c.stack.preview(parked(8)))).toEqual(["research:same"]);
    await c.stack.up(research({ replicaSpecs: { specs: "sku-1", customCpu: 8 } }));
    expect(c.notebook()).toMatchObject({ status: "Running", replica_specs: expect.objectContaining({ custom_cpu: 8 }) });
  });

  it("removing stopTime from the program clears it on the platform; removing envs replaces, and preview names it", async () => {
    const c = await setUp();
    const envs = [{ name: "MODE", value: "dev" }];
    await c.stack.up(research({ stopTime: "2031-01-01T00:00:00Z", envs }));
    await c.stack.up(research({ envs }));
    expect(c.notebook().stop_time).toBeNull();
    const preview = await c.stack.preview(research());
    expect(preview.steps).toMatchObject([{ name: "research", op: "replace", replaces: ["envs"] }]);
  });

  it("an auto-delete time set in the console: preview warns with the time", async () => {
    const c = await setUp();
    await c.stack.up(research());
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/set_delete_time`, { uuid, auto_delete_time: "2031-03-04T05:06:07Z" })).json.ret_code).toBe(0);
    // `preview --refresh`: the refresh, then the preview.
    await c.stack.refresh();
    const preview = await c.stack.preview(research());
    expect(preview.warnings.join("\n")).toMatch(/will be DELETED by the platform at 2031-03-04T05:06:07/);
  });

  it("a past autoDeleteTime or stopTime is refused before any request; the notebook stays", async () => {
    const c = await setUp();
    await c.stack.up(research({ autoDeleteTime: "2031-01-01T00:00:00Z" }));
    c.emulator.clearRequests();
    const up = await failed(c.stack.up(research({ autoDeleteTime: "2020-01-01T00:00:00Z", stopTime: "2020-01-01T00:00:00Z" })));
    expect(up.text).toContain("autoDeleteTime 2020-01-01T00:00:00Z is in the past");
    expect(up.text).toContain("stopTime 2020-01-01T00:00:00Z is in the past");
    expect(c.sent("setDeleteTime") + c.sent("setStopTime")).toBe(0);
    expect(c.notebook().status).toBe("Running");
  });
});
