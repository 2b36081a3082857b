/**
 * What Pulumi shows is what the platform has, when the platform's answers are
 * late or say no, through the in-process engine
 * (test/support/engine/stack.ts): a list that lags behind a write never turns
 * a failed restart into "updated"; what `ignoreChanges` keeps after a refresh
 * is accepted as it was recorded; a notebook the platform will not start
 * again is replaced only when it never ran (it holds no work), and otherwise
 * the up fails saying how to replace it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { failed, inProcessCases, ops, research } from "../support/engine/notebook-stack";
import { NS, until } from "../support/platform-console";

const badImage = { image: "jupyter:does-not-exist" };

describe("what Pulumi shows when the platform lags or refuses (in-process engine)", () => {
  const cases = inProcessCases();
  afterAll(() => cases.dispose());

  it("an image change under a list that lags 1 s (20 polls): a good image is waited for, a bad one fails with the platform's reason", async () => {
    const c = await cases.setUp({}, { timings: { staleFailedMs: 300 } });
    await c.stack.up(research());
    c.emulator.misbehave({ staleListMs: 1000 });
    await c.stack.up(research({ image: "jupyter:2" }));
    expect(c.notebook()).toMatchObject({ image: "jupyter:2", status: "Running" });
    const bad = await failed(c.stack.up(research(badImage)));
    expect(bad.text).toContain("ErrImagePull");
    // Not recorded as updated: the next up tries again.
    expect(c.stack.find("research")!.initErrors).not.toEqual([]);
  });

  it('ignoreChanges: ["desiredState"] after a refresh that recorded Failed: up is accepted and leaves the status alone', async () => {
    const c = await cases.setUp();
    const program = research({}, { ignoreChanges: ["desiredState"] });
    await c.stack.up(program);
    expect(c.emulator.failNotebook(String(c.notebook().uuid), "OOMKilled")).toBe(true);
    await c.stack.refresh();
    c.emulator.clearRequests();
    await c.stack.up(program);
    expect(c.sent("startNotebooks")).toBe(0);
    expect(c.notebook().status).toBe("Failed");
  });

  it('ignoreChanges: ["customImageSecret"] after a refresh: up is accepted and changes nothing', async () => {
    const c = await cases.setUp();
    const program = (extra: Record<string, unknown> = {}) =>
      research(
        { imageType: "custom", customImageSecret: { hasAuth: true, username: "bot", password: "registry-pass-1" }, ...extra },
        { ignoreChanges: ["customImageSecret"] },
      );
    await c.stack.up(program());
    await c.stack.refresh();
    c.emulator.clearRequests();
    await c.stack.up(program());
    expect(c.sent("changeImage") + c.sent("startNotebooks")).toBe(0);
    // A resize starts the notebook on its new size; the start sends no registry password, so the kept digest is enough.
    const resized = { replicaSpecs: { specs: "sku-1", customCpu: 4 } };
    await c.stack.up(program(resized));
    expect(c.notebook()).toMatchObject({ status: "Running", replica_specs: expect.objectContaining({ custom_cpu: 4 }) });
    // A replacement would create, which needs the password: refused in preview, before anything is deleted.
    const uuid = String(c.notebook().uuid);
    const replaced = await failed(c.stack.up(program({ ...resized, serverType: "rstudio" })));
    expect(replaced.text).toContain("customImageSecret is kept from the state");
    expect(replaced.result.steps).toEqual([]);
    expect(c.notebook()).toMatchObject({ uuid, status: "Running" });
  });

  it("a Failed notebook that never ran, on a platform that will not start it: preview says replace, up replaces it", async () => {
    const c = await cases.setUp({ dialect: { startFailed: "refuse" } });
    await failed(c.stack.up(research(badImage)));
    const failedUuid = String(c.notebook().uuid);
    const preview = await c.stack.preview(research());
    expect(ops(preview)).toEqual(["research:replace"]);
    expect(preview.warnings.join("\n")).toContain("never ran");
    const up = await c.stack.up(research());
    expect(ops(up)).toEqual(["research:replace"]);
    expect(c.notebook()).toMatchObject({ status: "Running", image: "jupyter:1" });
    expect(c.notebook().uuid).not.toBe(failedUuid);
  });

  it(
    "a notebook recorded as never ran that has run since (started in the console, then failed) is not replaced: the platform's running time says it " + "ran",
    async () => {
      const c = await cases.setUp();
      await failed(c.stack.up(research(badImage)));
      const uuid = String(c.notebook().uuid);
      // The console fixes the image; the notebook runs a while (the emulator's clock moves 2 s), then fails. Nobody refreshes.
      expect((await c.console.post(`${NS}/notebooks/change_image`, { uuid, image: "jupyter:1", image_type: "official" })).json.ret_code).toBe(0);
      await until(c, (nb) => nb.status === "Running");
      c.emulator.clock.advance(2000);
      expect(Number(c.notebook().running_time)).toBeGreaterThanOrEqual(1);
      expect(c.emulator.failNotebook(uuid, "OOMKilled")).toBe(true);
      expect(ops(await c.stack.preview(research()))).toEqual(["research:update"]);
      await c.stack.up(research());
      expect(c.notebook()).toMatchObject({ uuid, status: "Running" });
    },
  );

  it("a notebook that ran and then failed, on a platform that will not start it: up fails saying how to replace it, and deletes nothing", async () => {
    const c = await cases.setUp({ dialect: { startFailed: "refuse" } });
    await c.stack.up(research());
    const uuid = String(c.notebook().uuid);
    expect(c.emulator.failNotebook(uuid, "OOMKilled")).toBe(true);
    await c.stack.refresh();
    c.emulator.clearRequests();
    const up = await failed(c.stack.up(research()));
    expect(up.text).toContain("refused to start");
    expect(up.text).toContain("--replace");
    expect(c.sent("setDeleteTime") + c.sent("createNotebook")).toBe(0);
    expect(c.notebook()).toMatchObject({ uuid, status: "Failed" });
  });
});
