/**
 * What Pulumi shows is what the platform has, when the platform's answers are
 * late or say no (issue 12, items 1, 2 and 4), through the real engine and
 * CLI: a list that lags behind a write never turns a failed restart into
 * "updated"; what `ignoreChanges` keeps after a refresh is accepted as it
 * was recorded; a notebook the platform will not start again is replaced only
 * when it never ran (it holds no work), and otherwise the up fails saying how
 * to replace it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { notebookCases, program } from "../support/notebook-case";
import { NS, until } from "../support/platform-console";

describe("what Pulumi shows when the platform lags or refuses", () => {
  const cases = notebookCases();
  afterAll(() => cases.dispose());

  it("an image change under a list that lags 4 s: a good image is waited for, a bad one fails with the platform's reason", async () => {
    const c = await cases.setUp("stale-image", program());
    expect((await c.pulumi("up")).status).toBe(0);
    c.emulator.misbehave({ staleListMs: 4000 });
    c.write(program().replace('"jupyter:1"', '"jupyter:2"'));
    const good = await c.pulumi("up");
    expect(good.status, good.output).toBe(0);
    expect(c.notebook()).toMatchObject({ image: "jupyter:2", status: "Running" });
    c.write(program().replace('"jupyter:1"', '"jupyter:does-not-exist"'));
    const bad = await c.pulumi("up");
    expect(bad.status, bad.output).not.toBe(0);
    expect(bad.output).toContain("ErrImagePull");
    expect(bad.output).not.toMatch(/\b1 updated\b/);
  }, 180_000);

  it("ignoreChanges: [\"desiredState\"] after a refresh that recorded Failed: up is accepted and leaves the status alone", async () => {
    const c = await cases.setUp("ignore-state", program("", '{ ignoreChanges: ["desiredState"] }'));
    expect((await c.pulumi("up")).status).toBe(0);
    expect(c.emulator.failNotebook(String(c.notebook().uuid), "OOMKilled")).toBe(true);
    expect((await c.pulumi("refresh")).status).toBe(0);
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Failed");
  }, 180_000);

  it("ignoreChanges: [\"customImageSecret\"] after a refresh: up is accepted and changes nothing", async () => {
    const secret = ', imageType: "custom", customImageSecret: { hasAuth: true, username: "bot", password: "registry-pass-1" }';
    const c = await cases.setUp("ignore-secret", program(secret, '{ ignoreChanges: ["customImageSecret"] }').replace('imageType: "official",', ""));
    expect((await c.pulumi("up")).status).toBe(0);
    expect((await c.pulumi("refresh")).status).toBe(0);
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.sent("changeImage") + c.sent("startNotebooks")).toBe(0);
    // A resize starts the notebook on its new size; the start sends no registry password, so the kept digest is enough.
    c.write(program(secret, '{ ignoreChanges: ["customImageSecret"] }').replace('imageType: "official",', "").replace("customCpu: 2", "customCpu: 4"));
    const resized = await c.pulumi("up");
    expect(resized.status, resized.output).toBe(0);
    expect(c.notebook()).toMatchObject({ status: "Running", replica_specs: expect.objectContaining({ custom_cpu: 4 }) });
    // A replacement would create, which needs the password: refused in preview, before anything is deleted.
    const uuid = String(c.notebook().uuid);
    c.write(program(secret, '{ ignoreChanges: ["customImageSecret"] }').replace('imageType: "official",', "").replace("customCpu: 2", "customCpu: 4").replace('"jupyter",', '"rstudio",'));
    const replaced = await c.pulumi("up");
    expect(replaced.status, replaced.output).not.toBe(0);
    expect(replaced.output).toContain("customImageSecret is kept from the state");
    expect(c.notebook()).toMatchObject({ uuid, status: "Running" });
  }, 240_000);

  it("a Failed notebook that never ran, on a platform that will not start it: preview says replace, up replaces it", async () => {
    const c = await cases.setUp("never-ran", program().replace('"jupyter:1"', '"jupyter:does-not-exist"'), { dialect: { startFailed: "refuse" } });
    const first = await c.pulumi("up");
    expect(first.status, first.output).not.toBe(0);
    const failed = String(c.notebook().uuid);
    c.write(program());
    const preview = await c.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/\+-\s*pulumi-nodejs:dynamic\/aicp:Notebook: \(replace\)/);
    expect(preview.output).toContain("never ran");
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.notebook()).toMatchObject({ status: "Running", image: "jupyter:1" });
    expect(c.notebook().uuid).not.toBe(failed);
  }, 180_000);

  it("a notebook recorded as never ran that has run since (started in the console, then failed) is not replaced: the platform's running time says it ran", async () => {
    const c = await cases.setUp("ran-since", program().replace('"jupyter:1"', '"jupyter:does-not-exist"'));
    expect((await c.pulumi("up")).status).not.toBe(0);
    const uuid = String(c.notebook().uuid);
    // The console fixes the image; the notebook runs a while, then fails. Nobody refreshes.
    expect((await c.console.post(`${NS}/notebooks/change_image`, { uuid, image: "jupyter:1", image_type: "official" })).json.ret_code).toBe(0);
    await until(c, (nb) => nb.status === "Running" && Number(nb.running_time) >= 1);
    expect(c.emulator.failNotebook(uuid, "OOMKilled")).toBe(true);
    c.write(program());
    const preview = await c.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).not.toMatch(/\(replace\)/);
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.notebook()).toMatchObject({ uuid, status: "Running" });
  }, 180_000);

  it("a notebook that ran and then failed, on a platform that will not start it: up fails saying how to replace it, and deletes nothing", async () => {
    const c = await cases.setUp("ran-then-refused", program(), { dialect: { startFailed: "refuse" } });
    expect((await c.pulumi("up")).status).toBe(0);
    const uuid = String(c.notebook().uuid);
    expect(c.emulator.failNotebook(uuid, "OOMKilled")).toBe(true);
    expect((await c.pulumi("refresh")).status).toBe(0);
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("refused to start");
    expect(up.output).toContain("--replace");
    expect(c.sent("setDeleteTime") + c.sent("createNotebook")).toBe(0);
    expect(c.notebook()).toMatchObject({ uuid, status: "Failed" });
  }, 180_000);
});
