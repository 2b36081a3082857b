/**
 * In-process: an in-place update is done when the
 * platform shows its own write, not at the first answer that happens to say
 * Running (a list that lags behind writes shows the notebook as it was), and
 * a state the program keeps through ignoreChanges is never changed as a side
 * effect of another update. Each case counts what it would cost a user.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import type { NotebookInputs, NotebookOutputs } from "../../provider/notebook";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { reliabilityCase } from "../support/reliability";
import { useTimings } from "../../provider/timing";

const user = emulatorCredentials.userId;
const namespace = user.toLowerCase();

describe("updates wait on evidence of their own write, and kept states stay kept", () => {
  let emulator: Emulator;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === namespace);
  /** The platform's own view of a notebook: the store, not a list answer that lags. */
  const truth = (uuid: string) => own().find((n) => n.uuid === uuid)!;
  const sent = () =>
    emulator
      .requests()
      .filter((r) => r.operation !== "listNotebooks" && r.operation !== "admin")
      .map((r) => String(r.operation));
  const markOf = (name: string) => createHash("md5").update(`update-evidence/${name}`).digest("hex");
  const inputs = (name: string, extra: Partial<NotebookInputs> = {}): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "e71de9c", ownerMark: markOf(name), readyTimeoutSeconds: 10, ...extra });

  async function checked(news: NotebookInputs): Promise<NotebookInputs> {
    const result = await notebook.check({}, news);
    expect(result.failures).toBeUndefined();
    return result.inputs!;
  }

  /** Creates the notebook and waits until it runs; the clock then moves on, so its next change falls in a later second. */
  async function running(news: NotebookInputs): Promise<{ id: string; outs: NotebookOutputs }> {
    const created = await notebook.create(news);
    emulator.clock.advance(5_000);
    const outs = (await notebook.read(created.id, created.outs as NotebookOutputs)).props!;
    expect(outs.status).toBe("Running");
    return { id: created.id, outs };
  }

  const run = (name: string, body: Parameters<typeof reliabilityCase>[2]) => reliabilityCase("in-process", name, body);
  let refreshes = 0;

  beforeAll(async () => {
    // Pending lasts long enough that an update which returns on an old answer returns while the platform has it Pending.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 600 });
    useTimings({ pollIntervalMs: 50 });
    configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "2" }));
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.misbehave({ staleListMs: 0 });
    emulator.clearRequests();
    for (const n of own()) emulator.deleteNotebook(String(n.uuid));
  });

  it(
    "new registry credentials on a lagging list: the update ends when the platform shows the restart, Running",
    () =>
      run("new registry credentials, list lags behind writes", async (row) => {
        const custom = { image: "registry.example.com/team/lab:1", imageType: "custom" as const };
        const first = await checked(inputs("creds", { ...custom, customImageSecret: { hasAuth: true, username: "ci", password: "old-token" } }));
        const { id, outs } = await running(first);
        emulator.misbehave({ staleListMs: 400 });
        emulator.clearRequests();
        const news = await checked(inputs("creds", { ...custom, customImageSecret: { hasAuth: true, username: "ci", password: "new-token" } }));
        const result = await notebook.update(id, outs, news);
        const platform = truth(id);
        console.log(`credentials: sent ${JSON.stringify(sent())}; update reported ${String(result.outs?.status)}, platform has ${String(platform.status)}`);
        if (result.outs?.status !== platform.status) row.taken = 1;
        expect(sent()).toEqual(["changeImage"]);
        expect(platform.status).toBe("Running");
        expect(result.outs?.status).toBe("Running");
        // The recorded update time is the restart's, not the one from before the write.
        expect(result.outs?.updatedAt).not.toBe(outs.updatedAt);
      }),
    30_000,
  );

  it(
    "a resize on a lagging list: the update ends when the platform shows the new size running",
    () =>
      run("resize, list lags behind writes", async (row) => {
        const { id, outs } = await running(await checked(inputs("resize-lag")));
        emulator.misbehave({ staleListMs: 400 });
        emulator.clearRequests();
        const news = await checked(inputs("resize-lag", { replicaSpecs: { specs: "sku-1", customGpu: 2 } }));
        const result = await notebook.update(id, outs, news);
        const platform = truth(id);
        console.log(`resize: sent ${JSON.stringify(sent())}; update reported ${String(result.outs?.status)}, platform has ${String(platform.status)}`);
        if (result.outs?.status !== platform.status) row.taken = 1;
        expect(sent()).toEqual(["stopNotebooks", "startNotebooks"]);
        expect(platform.status).toBe("Running");
        expect(result.outs?.status).toBe("Running");
      }),
    30_000,
  );

  it(
    "a stop on a lagging list: the update ends when the platform shows it Stopped",
    () =>
      run("stop, list lags behind writes", async (row) => {
        const { id, outs } = await running(await checked(inputs("stop-lag")));
        emulator.misbehave({ staleListMs: 400 });
        emulator.clearRequests();
        const result = await notebook.update(id, outs, await checked(inputs("stop-lag", { desiredState: "Stopped" })));
        const platform = truth(id);
        console.log(`stop: sent ${JSON.stringify(sent())}; update reported ${String(result.outs?.status)}, platform has ${String(platform.status)}`);
        if (result.outs?.status !== platform.status) row.taken = 1;
        expect(sent()).toEqual(["stopNotebooks"]);
        expect(result.outs?.status).toBe("Stopped");
      }),
    30_000,
  );

  /** A notebook that failed after it ran, as a refresh records it under ignoreChanges: ["desiredState"]. */
  async function keptFailed(name: string, extra: Partial<NotebookInputs> = {}) {
    const { id, outs } = await running(await checked(inputs(name, extra)));
    emulator.failNotebook(id, "OOMKilled: the container ran out of memory");
    // A refresh is a provider process of its own, with nothing listed yet: other settings build a new client and listing.
    configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": String(2 + ++refreshes / 1000) }));
    const refreshed = (await notebook.read(id, outs)).props!;
    expect(refreshed.status).toBe("Failed");
    emulator.clearRequests();
    // The engine passes the recorded desiredState for a property the program keeps through ignoreChanges.
    const kept = (news: NotebookInputs): NotebookInputs => ({ ...news, desiredState: "Failed" });
    return { id, outs: { ...refreshed, desiredState: "Failed" } as NotebookOutputs, kept };
  }

  it(
    "a resize of a Failed notebook whose state the program keeps: recorded for its next start, no stop and no start",
    () =>
      run("resize, kept Failed state", async (row) => {
        const { id, outs, kept } = await keptFailed("failed-resize");
        const news = kept(await checked(inputs("failed-resize", { replicaSpecs: { specs: "sku-1", customGpu: 2 } })));
        const result = await notebook.update(id, outs, news);
        console.log(`kept Failed, resize: sent ${JSON.stringify(sent())}; platform has ${String(truth(id).status)}`);
        row.taken = sent().filter((op) => op === "stopNotebooks" || op === "startNotebooks").length;
        expect(sent()).toEqual([]);
        expect(truth(id).status).toBe("Failed");
        expect(result.outs?.resizeAtStart).toBe(true);
        expect((result.outs?.replicaSpecs as { customGpu?: number }).customGpu).toBe(2);
      }),
    30_000,
  );

  it(
    "a new image for a Failed notebook whose state the program keeps: refused before anything is sent, since the change restarts it",
    () =>
      run("image change, kept Failed state", async (row) => {
        const { id, outs, kept } = await keptFailed("failed-image");
        const news = kept(await checked(inputs("failed-image", { image: "jupyter:2" })));
        const error = await notebook.update(id, outs, news).then(
          () => undefined,
          (e: unknown) => e,
        );
        console.log(
          `kept Failed, new image: sent ${JSON.stringify(sent())}; platform has ${String(truth(id).status)}; ${String((error as Error | undefined)?.message)}`,
        );
        row.taken = sent().length;
        expect(sent()).toEqual([]);
        expect(truth(id).status).toBe("Failed");
        expect(error).toBeInstanceOf(AicpError);
        expect((error as AicpError).message).toMatch(/ignoreChanges/);
      }),
    30_000,
  );

  it(
    "a resize and a new image for a Stopped notebook whose state the program keeps: nothing starts it",
    () =>
      run("resize and image change, kept Stopped state", async (row) => {
        const { id, outs } = await running(await checked(inputs("stopped-kept")));
        const stopped = await notebook.update(id, outs, await checked(inputs("stopped-kept", { desiredState: "Stopped" })));
        emulator.clearRequests();
        // The program says Running now, but keeps the recorded Stopped through ignoreChanges.
        const news = {
          ...(await checked(inputs("stopped-kept", { image: "jupyter:2", replicaSpecs: { specs: "sku-1", customGpu: 2 } }))),
          desiredState: "Stopped" as const,
        };
        const result = await notebook.update(id, stopped.outs as NotebookOutputs, news);
        console.log(`kept Stopped, resize and new image: sent ${JSON.stringify(sent())}; platform has ${String(truth(id).status)}`);
        row.taken = sent().filter((op) => op === "startNotebooks").length;
        expect(sent()).toEqual(["changeImage"]);
        expect(truth(id).status).toBe("Stopped");
        expect(result.outs?.status).toBe("Stopped");
        expect(result.outs?.resizeAtStart).toBe(true);
      }),
    30_000,
  );
  it("an image update whose wait times out records the image it wrote, so the next up does not send it again", () =>
    run("image update, wait timed out", async (row) => {
      const news = await checked(inputs("recorded-image"));
      const { id, outs } = await running(news);
      emulator.clearRequests();
      // A wait shorter than the restart (the engine's customTimeouts.update): the update fails while the notebook is Pending.
      const changed = { ...news, image: "jupyter:2", readyTimeoutSeconds: 0.2 };
      const failed = (await notebook.update(id, outs, changed).catch((e: unknown) => e)) as Error & { properties?: NotebookOutputs };
      expect(failed).toBeInstanceOf(Error);
      expect(truth(id).image).toBe("jupyter:2");
      const recorded = failed.properties!;
      const again = await notebook.diff(id, recorded, { ...news, image: "jupyter:2" });
      row.taken += again.diffs?.includes("image") ? 1 : 0;
      expect(recorded.image).toBe("jupyter:2");
      expect(again.diffs ?? []).not.toContain("image");
    }));
});
