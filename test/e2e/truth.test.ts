/**
 * What Pulumi shows is what the platform has (issue 12), through the real
 * engine and CLI: a notebook that fails is never reported as updated or
 * unchanged, drift made outside Pulumi is recorded by refresh and named by
 * preview, and nothing restarts a notebook the program did not ask to restart.
 * Out-of-band changes are made as a console would: signed requests to the
 * platform's own operations (or the emulator's admin API for a crash).
 */
import { afterAll, describe, expect, it } from "vitest";
import { emulatorCredentials } from "../support/emulator";
import { inSeconds, notebookCases, NS, program, until } from "../support/notebook-case";

describe("what Pulumi shows is what the platform has", () => {
  const cases = notebookCases();
  const setUp = cases.setUp;
  afterAll(() => cases.dispose());

  it("an image that cannot be pulled fails the up with the platform's reason, and the next up tries again instead of reporting success", async () => {
    const c = await setUp("bad-image", program());
    expect((await c.pulumi("up")).status).toBe(0);
    c.write(program().replace('"jupyter:1"', '"jupyter:does-not-exist"'));
    const up = await c.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("ErrImagePull");
    expect(c.notebook().status).toBe("Failed");
    c.emulator.clearRequests();
    const again = await c.pulumi("up");
    expect(again.status, again.output).not.toBe(0);
    expect(again.output).toContain("ErrImagePull");
    expect(c.sent("startNotebooks")).toBe(1);
  }, 180_000);

  it("a create that failed, then up with no change: fails again with the reason, never 'updated'", async () => {
    const c = await setUp("failed-create", program().replace('"jupyter:1"', '"jupyter:does-not-exist"'));
    const first = await c.pulumi("up");
    expect(first.status, first.output).not.toBe(0);
    const again = await c.pulumi("up");
    expect(again.status, again.output).not.toBe(0);
    expect(again.output).toContain("ErrImagePull");
    expect(again.output).not.toMatch(/\b1 updated\b/);
  }, 180_000);

  it("raising readyTimeoutSeconds after a timeout, as the error advises, waits for Running", async () => {
    // Ready 15 s after its create: the second up comes well before that, so only a wait can see Running.
    const c = await setUp("raise-timeout", program(", readyTimeoutSeconds: 1"), { notebookReadyDelayMs: 15_000 });
    const first = await c.pulumi("up");
    expect(first.status, first.output).not.toBe(0);
    expect(first.output).toContain("readyTimeoutSeconds");
    c.write(program(", readyTimeoutSeconds: 60"));
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const outputs = await c.pulumi("stack", "output", "status");
    expect(outputs.output.trim()).toBe("Running");
  }, 180_000);

  it("a notebook that goes Running then Failed: refresh records it, preview names it, up starts it again", async () => {
    const c = await setUp("crash", program());
    expect((await c.pulumi("up")).status).toBe(0);
    expect(c.emulator.failNotebook(String(c.notebook().uuid), "OOMKilled")).toBe(true);
    expect((await c.pulumi("refresh")).status).toBe(0);
    const preview = await c.pulumi("preview", "--diff", "--expect-no-changes");
    expect(preview.status, preview.output).not.toBe(0);
    expect(preview.output).toMatch(/desiredState\s*:\s*"Failed"\s*=>\s*"Running"/);
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.notebook().status).toBe("Running");
  }, 180_000);

  it("status words in another case are known; an unknown one is waited for, bounded, and named", async () => {
    const c = await setUp("status-words", program(", readyTimeoutSeconds: 20"));
    c.emulator.misbehave({ statusWords: { Running: "running", Pending: "Starting" } });
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    c.write(program(", readyTimeoutSeconds: 2").replace('"jupyter:1"', '"jupyter:2"'));
    c.emulator.misbehave({ statusWords: { Running: "Healthy", Pending: "Starting" } });
    const unknown = await c.pulumi("up");
    expect(unknown.status, unknown.output).not.toBe(0);
    expect(unknown.output).toContain('"Healthy" is not a status the provider knows');
  }, 180_000);

  it("changes made in the console are named by preview after refresh: stop, stop time, image", async () => {
    const c = await setUp("named-drift", program(', stopTime: "2031-01-01T00:00:00Z"'));
    expect((await c.pulumi("up")).status).toBe(0);
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/stop`, { uuids: [uuid] })).json.ret_code).toBe(0);
    expect((await c.console.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "2032-06-01T00:00:00Z" })).json.ret_code).toBe(0);
    expect((await c.console.post(`${NS}/notebooks/change_image`, { uuid, image: "jupyter:9", image_type: "official" })).json.ret_code).toBe(0);
    expect((await c.pulumi("refresh")).status).toBe(0);
    const preview = await c.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/stopTime\s*:\s*"2032-06-01T00:00:00(Z|\+00:00)?"\s*=>\s*"2031-01-01T00:00:00Z"/);
    expect(preview.output).toMatch(/image\s*:\s*"jupyter:9"\s*=>\s*"jupyter:1"/);
    expect(preview.output).toMatch(/desiredState\s*:\s*"Stopped"\s*=>\s*"Running"/);
  }, 180_000);

  it("ignoreChanges: [\"stopTime\"] keeps a stop time set in the console, also after refresh", async () => {
    const c = await setUp("ignore-stop", program(', stopTime: "2031-01-01T00:00:00Z"', '{ ignoreChanges: ["stopTime"] }'));
    expect((await c.pulumi("up")).status).toBe(0);
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "2032-06-01T00:00:00Z" })).json.ret_code).toBe(0);
    expect((await c.pulumi("refresh")).status).toBe(0);
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.sent("setStopTime")).toBe(0);
    expect(String(c.notebook().stop_time)).toMatch(/^2032-06-01T00:00:00/);
  }, 180_000);

  it("a stop at the notebook's own stop time is not drift: refresh and up leave it stopped", async () => {
    const c = await setUp("scheduled-stop", program(`, stopTime: "${inSeconds(20)}"`));
    expect((await c.pulumi("up")).status).toBe(0);
    await until(c, (nb) => nb.status === "Stopped");
    expect((await c.pulumi("refresh")).status).toBe(0);
    const preview = await c.pulumi("preview", "--expect-no-changes");
    expect(preview.status, preview.output).toBe(0);
    c.emulator.clearRequests();
    expect((await c.pulumi("up")).status).toBe(0);
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Stopped");
  }, 180_000);

  it("rotating the access key changes nothing for a notebook with a registry password", async () => {
    const rotated = { accessKeyId: "AKIDROTATED", secretAccessKey: "rotated-secret", userId: emulatorCredentials.userId };
    const c = await setUp(
      "rotate",
      program(', imageType: "custom", customImageSecret: { hasAuth: true, username: "bot", password: "registry-pass-1" }').replace('imageType: "official",', ""),
      { credentials: [emulatorCredentials, rotated] },
    );
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const env = c.project.env();
    const preview = await c.project.run(
      "env", `QY_ACCESS_KEY_ID=${rotated.accessKeyId}`, `QY_SECRET_ACCESS_KEY=${rotated.secretAccessKey}`, `PATH=${env.PATH}`,
      "pulumi", "preview", "--expect-no-changes", "--non-interactive", "--stack", "ci",
    );
    expect(preview.status, preview.output).toBe(0);
  }, 180_000);

  it("a resize the platform refuses puts the notebook back; reverting the program then changes nothing and it runs", async () => {
    const c = await setUp("resize-refused", program());
    expect((await c.pulumi("up")).status).toBe(0);
    c.write(program().replace('replicaSpecs: { specs: "sku-1", customCpu: 2 }', 'replicaSpecs: { specs: "sku-2", rgId: "rg-nowhere", customCpu: 4 }'));
    const refused = await c.pulumi("up");
    expect(refused.status, refused.output).not.toBe(0);
    expect(refused.output).toContain("refused the new size");
    c.write(program());
    const reverted = await c.pulumi("up");
    expect(reverted.status, reverted.output).toBe(0);
    await until(c, (nb) => nb.status === "Running");
    expect(c.notebook().replica_specs).toMatchObject({ specs: "sku-1", custom_cpu: 2 });
  }, 180_000);

  it("resizing a parked notebook keeps it parked; the size applies at its next start", async () => {
    const c = await setUp("resize-parked", program(', desiredState: "Stopped"'));
    expect((await c.pulumi("up")).status).toBe(0);
    c.emulator.clearRequests();
    c.write(program(', desiredState: "Stopped"').replace("customCpu: 2", "customCpu: 8"));
    expect((await c.pulumi("up")).status).toBe(0);
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Stopped");
    expect((await c.pulumi("refresh")).status).toBe(0);
    expect((await c.pulumi("preview", "--expect-no-changes")).status).toBe(0);
    c.write(program().replace("customCpu: 2", "customCpu: 8"));
    expect((await c.pulumi("up")).status).toBe(0);
    expect(c.notebook()).toMatchObject({ status: "Running", replica_specs: expect.objectContaining({ custom_cpu: 8 }) });
  }, 180_000);

  it("removing stopTime from the program clears it on the platform; removing envs replaces, and preview names it", async () => {
    const c = await setUp("removed", program(', stopTime: "2031-01-01T00:00:00Z", envs: [{ name: "MODE", value: "dev" }]'));
    expect((await c.pulumi("up")).status).toBe(0);
    c.write(program(', envs: [{ name: "MODE", value: "dev" }]'));
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.notebook().stop_time).toBeNull();
    c.write(program());
    const preview = await c.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/\+-\s*pulumi-nodejs:dynamic\/aicp:Notebook: \(replace\)/);
    expect(preview.output).toMatch(/-\s*envs\s*:/);
  }, 180_000);

  it("an auto-delete time set in the console: preview warns with the time", async () => {
    const c = await setUp("outside-delete", program());
    expect((await c.pulumi("up")).status).toBe(0);
    const uuid = String(c.notebook().uuid);
    expect((await c.console.post(`${NS}/notebooks/set_delete_time`, { uuid, auto_delete_time: "2031-03-04T05:06:07Z" })).json.ret_code).toBe(0);
    const preview = await c.pulumi("preview", "--refresh");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/will be DELETED by the platform at 2031-03-04T05:06:07/);
  }, 180_000);

  it("a past autoDeleteTime or stopTime is refused before any request; the notebook stays", async () => {
    const c = await setUp("past-times", program(', autoDeleteTime: "2031-01-01T00:00:00Z"'));
    expect((await c.pulumi("up")).status).toBe(0);
    c.write(program(', autoDeleteTime: "2020-01-01T00:00:00Z", stopTime: "2020-01-01T00:00:00Z"'));
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("autoDeleteTime 2020-01-01T00:00:00Z is in the past");
    expect(up.output).toContain("stopTime 2020-01-01T00:00:00Z is in the past");
    expect(c.sent("setDeleteTime") + c.sent("setStopTime")).toBe(0);
    expect(c.notebook().status).toBe("Running");
  }, 180_000);
});
