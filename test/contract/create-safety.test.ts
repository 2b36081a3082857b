/**
 * In-process: the create path when the engine
 * recorded nothing (a crash while the create was in flight, on a platform
 * that lists new notebooks late), when someone copied a notebook's or a
 * group's visible settings (its mark among them), and when an unconfirmed
 * create outlives its window. Each case counts what a user would pay:
 * create requests, objects on the platform, objects left after destroy.
 *
 * A "new provider process" is a fresh copy of the provider's modules
 * (vi.resetModules): nothing the first one held in memory reaches it, as
 * after kill -9. What outlives it is what a real process leaves: the
 * platform, the state the engine recorded, and files on disk.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { emulatorCredentials, emulatorSettings, emulatorZone, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { eventually } from "../support/poll";
import { reliabilityCase } from "../support/reliability";

const user = emulatorCredentials.userId;
const namespace = user.toLowerCase();

type NotebookModule = typeof import("../../provider/notebook");
type GroupModule = typeof import("../../provider/resource-group");
/** What a Create hands the engine. */
type Created = { id: string; outs?: Record<string, unknown> };

describe("creates that may still appear, and marks that were copied", () => {
  let emulator: Emulator;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === namespace);
  /** The notebooks named `name` the platform holds and is not deleting. */
  const live = (name: unknown) => own().filter((n) => n.name === name && !n.auto_delete_time);
  const groups = () => emulator.listResourceGroups().filter((g) => g.user_id === user);
  const count = (operation: string) => emulator.requests().filter((r) => r.operation === operation).length;
  const markOf = (name: string) => createHash("md5").update(`create-safety/${name}`).digest("hex");
  const inputs = (name: string, extra: Partial<NotebookInputs> = {}): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "c0ffee1", ownerMark: markOf(name), readyTimeoutSeconds: 1, ...extra });

  /** A provider process of its own: fresh modules, configured for the emulator. */
  /** The times each fresh copy of the provider runs with (provider/timing.ts), as its own process would be configured. */
  const timings: { pollIntervalMs: number; unconfirmedCreateWindowMs?: number } = { pollIntervalMs: 50 };

  /** A fresh provider process: each kind's lifecycle, and `recorded`, a Create whose answer the engine receives (provider/index.ts lifecycle). */
  async function providerProcess(): Promise<{ notebook: NotebookModule; group: GroupModule; recorded: (kind: string, inputs: object) => Promise<Created> }> {
    vi.resetModules();
    (await import("../../provider/timing")).useTimings(timings);
    const context = await import("../../provider/context");
    context.configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "0.5" }));
    const { lifecycle } = await import("../../provider");
    const recorded = (kind: string, inputs: object) => (lifecycle(kind).create as (i: object) => Promise<Created>)(inputs);
    return { notebook: await import("../../provider/notebook"), group: await import("../../provider/resource-group"), recorded };
  }

  const run = (name: string, body: Parameters<typeof reliabilityCase>[2]) => reliabilityCase("in-process", name, body);

  /** A person's own client: what they do in the console or with the platform's tools. */
  const person = () => new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    delete timings.unconfirmedCreateWindowMs;
    emulator.clearFaults();
    emulator.clearMisbehaviour();
    emulator.clearRequests();
  });

  it("a provider killed while its create is in flight, on a platform that lists new notebooks a minute late: the next run sends no second create", () =>
    run("crash mid-create, list a minute late", async (row) => {
      emulator.misbehave({ listDelayMs: 60_000 });
      // The answer comes after the request timeout: the first process is still watching for it when it dies.
      emulator.addFault({ kind: "latency", latencyMs: 1500, operation: "createNotebook", count: 1 });
      const first = await providerProcess();
      const news = (await first.notebook.check({}, inputs("crashed"))).inputs!;
      // The engine died with this process: whatever create answers, nothing is recorded.
      await first.notebook.create(news).catch(() => undefined);
      await eventually(() => own().some((n) => n.name === news.name), "the platform to finish the first create");

      const second = await providerProcess();
      const retried = (await second.notebook.create(news).catch((e: unknown) => e)) as Error & { id?: string; properties?: Record<string, unknown> };
      console.log(`crash mid-create, list a minute late: ${count("createNotebook")} create request(s), ${live(news.name).length} notebook(s)`);
      row.duplicates = live(news.name).length - 1;
      expect(count("createNotebook")).toBe(1);
      expect(retried).toBeInstanceOf(Error);
      expect(retried.message).toMatch(/earlier run sent the create of notebook '[^']+' at /);
      // Recorded as unconfirmed: later runs resolve it by its mark.
      expect(retried.id).toMatch(/^unconfirmed-create-/);

      // The platform catches up; a refresh finds the one notebook, and destroy removes it.
      emulator.clock.advance(60_000);
      const third = await providerProcess();
      const read = await third.notebook.read(retried.id!, retried.properties as never);
      expect(read.id).toBe(live(news.name)[0]!.uuid);
      await third.notebook.remove(read.id!, read.props!);
      row.orphans = live(news.name).length;
      expect(row.orphans).toBe(0);
      expect(count("createNotebook")).toBe(1);
    }));

  it("a notebook's copy (its settings and mark copied by hand under its name) is refused by the replacement, not adopted, and survives", () =>
    run("copied notebook mark, replace", async (row) => {
      const { notebook, recorded } = await providerProcess();
      const news = (await notebook.check({}, inputs("copied"))).inputs!;
      const created = (await recorded("Notebook", news)) as Awaited<ReturnType<NotebookModule["create"]>>;
      // A colleague's copy: same name, same envs (the mark among them).
      const original = own().find((n) => n.uuid === created.id)!;
      const client = person();
      const copy = await client.createNotebook({ ...(await import("../../provider/notebook/inputs")).wireBody(news), envs: original.envs as never });
      await client.close();
      emulator.clearRequests();
      // `pulumi up --replace`: the old one is deleted first, then the create runs.
      await notebook.remove(created.id, created.outs!);
      const replaced = (await notebook.create(news).catch((e: unknown) => e)) as Error & { id?: string };
      const stillThere = own().find((n) => n.uuid === copy.uuid);
      row.taken = replaced instanceof Error ? 0 : 1;
      console.log(
        `copied notebook mark: ${count("createNotebook")} create(s), recorded ${replaced instanceof Error ? "nothing" : (replaced as { id: string }).id}`,
      );
      expect(replaced).toBeInstanceOf(Error);
      expect(replaced.message).toContain(copy.uuid);
      expect(replaced.message).toMatch(/no record/);
      expect(count("createNotebook")).toBe(0);
      expect(stillThere?.auto_delete_time ?? null).toBeNull();
      emulator.deleteNotebook(copy.uuid);
    }));

  it("a group's copy (a description pasted into a hand-made group of the same name) is refused by the replacement, not adopted, and survives", () =>
    run("copied group mark, replace", async (row) => {
      const { group, recorded } = await providerProcess();
      const news = (
        await group.check({}, { logicalName: "pasted", autoNameSuffix: "c0ffee2", ownerMark: markOf("pasted"), skuId: "sku-1", podTypes: ["job"] } as never)
      ).inputs!;
      const created = (await recorded("ResourceGroup", news)) as Awaited<ReturnType<GroupModule["create"]>>;
      const original = groups().find((g) => g.rg_id === created.id)!;
      const client = person();
      const copy = await client.createResourceGroup({
        name: String(original.name),
        description: String(original.description),
        sku_id: "sku-1",
        pod_type: ["job"],
        customize_enable: 0,
      } as never);
      await client.close();
      emulator.clearRequests();
      await group.remove(created.id, created.outs!);
      const replaced = (await group.create(news).catch((e: unknown) => e)) as Error;
      row.taken = replaced instanceof Error ? 0 : 1;
      console.log(`copied group mark: ${count("createResourceGroup")} create(s), ${replaced instanceof Error ? "refused" : "adopted the copy"}`);
      expect(replaced).toBeInstanceOf(Error);
      expect(replaced.message).toContain(copy.rg_id);
      expect(count("createResourceGroup")).toBe(0);
      expect(groups().some((g) => g.rg_id === copy.rg_id)).toBe(true);
    }));

  it("an unconfirmed create past its window is not followed by a second create: up refuses, naming the record, refresh keeps it", () =>
    run("unconfirmed past its window", async (row) => {
      timings.unconfirmedCreateWindowMs = 300;
      emulator.misbehave({ listDelayMs: 3_600_000 });
      emulator.addFault({ kind: "latency", latencyMs: 1500, operation: "createNotebook", count: 1 });
      const { notebook } = await providerProcess();
      const news = (await notebook.check({}, inputs("late"))).inputs!;
      const first = (await notebook.create(news).catch((e: unknown) => e)) as Error & { id: string; properties: Record<string, unknown> };
      expect(first.id).toMatch(/^unconfirmed-create-/);
      await eventually(() => own().some((n) => n.name === news.name), "the platform to finish the create");
      await new Promise((resolve) => setTimeout(resolve, 400));
      // refresh: the record stays (it may still appear).
      const refreshed = await notebook.read(first.id, first.properties as never);
      expect(refreshed.id).toBe(first.id);
      // up: refused, with what to check and how to clear the record; no second create.
      const update = (await notebook.update(first.id, first.properties as never, news).catch((e: unknown) => e)) as Error;
      console.log(`unconfirmed past its window: ${count("createNotebook")} create request(s), ${live(news.name).length} notebook(s)`);
      row.duplicates = live(news.name).length - 1;
      expect(count("createNotebook")).toBe(1);
      expect(update).toBeInstanceOf(Error);
      expect(update.message).toContain(first.id);
      expect(update.message).toContain("pulumi state delete");
      // Once listed, the record resolves to the one notebook and destroy removes it.
      emulator.clearMisbehaviour();
      const resolved = await notebook.read(first.id, first.properties as never);
      expect(resolved.id).toBe(live(news.name)[0]!.uuid);
      await notebook.remove(resolved.id!, resolved.props!);
      row.orphans = live(news.name).length;
      expect(row.orphans).toBe(0);
    }));
});
