/**
 * docs/identity.md, "settled on the id": a create journal entry lives only while its Create call is
 * unanswered to the engine. Once Create returns (an id, a partly created object, or an unconfirmed
 * record), the state holds the evidence, and the entry never again means "may still appear" nor makes
 * its object adoptable: not after another runner deleted the object, not by a replacement created
 * beside the old object.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";

const namespace = emulatorCredentials.userId.toLowerCase();
/** The Notebook's lifecycle at the engine boundary (provider/index.ts lifecycle), where the engine receives Create's answer. */
interface NotebookAtEngine {
  check(olds: object, news: NotebookInputs): Promise<{ inputs?: NotebookInputs }>;
  diff(id: string, olds: Record<string, unknown>, news: NotebookInputs): Promise<unknown>;
  create(inputs: NotebookInputs): Promise<{ id: string; outs?: Record<string, unknown> }>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
}

describe("a create journal entry is settled when Create returns", () => {
  let emulator: Emulator;
  const runnerA = mkdtempSync(join(tmpdir(), "aicp-runner-a-"));
  const runnerB = mkdtempSync(join(tmpdir(), "aicp-runner-b-"));
  const live = (name: unknown) => emulator.listNotebooks().filter((n) => n.namespace === namespace && n.name === name && !n.auto_delete_time);
  const creates = () => emulator.requests().filter((r) => r.operation === "createNotebook").length;
  const inputs = (name: string, mark: string): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "5e771ed", ownerMark: mark, readyTimeoutSeconds: 5 });

  /** A provider process on a runner: its own modules, and the runner's journal folder. */
  async function providerOn(runner: string): Promise<NotebookAtEngine> {
    process.env.AICP_CREATE_JOURNAL_DIR = runner;
    vi.resetModules();
    (await import("../../provider/timing")).useTimings({ pollIntervalMs: 50 });
    (await import("../../provider/context")).configureFrom(emulatorSettings(emulator));
    return (await import("../../provider")).lifecycle("Notebook") as unknown as NotebookAtEngine;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 20 });
  });
  afterAll(async () => {
    await emulator?.close();
    for (const dir of [runnerA, runnerB]) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => emulator.clearRequests());

  it("leaves no entry on the runner once Create has returned the id", async () => {
    const a = await providerOn(runnerA);
    const made = await a.create((await a.check({}, inputs("answered", "a1".repeat(16)))).inputs!);
    expect(made.id).toMatch(/\S/);
    expect(readdirSync(runnerA)).toEqual([]);
  });

  it("a persistent runner's next create after another runner deleted the notebook sends a new one", async () => {
    const mark = "b2".repeat(16);
    const a = await providerOn(runnerA);
    const news = (await a.check({}, inputs("deleted-elsewhere", mark))).inputs!;
    const made = await a.create(news);
    // Another runner of the same stack destroys it (its own journal, a fresh process).
    const b = await providerOn(runnerB);
    await b.delete(made.id, made.outs!);
    expect(live(news.name)).toEqual([]);
    // The first runner runs `pulumi up` again: the resource is new to the state.
    const again = await providerOn(runnerA);
    const remade = await again.create((await again.check({}, news)).inputs!);
    expect(remade.id).not.toBe(made.id);
    expect(live(news.name).map((n) => n.uuid)).toEqual([remade.id]);
    expect(creates()).toBe(2);
  });

  it("an entry an earlier version left with its id is settled by the next call that shows the state recording it", async () => {
    const mark = "d4".repeat(16);
    const a = await providerOn(runnerA);
    const news = (await a.check({}, inputs("upgraded", mark))).inputs!;
    const made = await a.create(news);
    // What the earlier version left on the runner: the answered create's entry, with its id.
    const { recordCreate } = await import("../../provider/create-journal");
    recordCreate(mark, { noun: "notebook", name: String(news.name), sentAt: new Date().toISOString(), id: made.id });
    const upgraded = await providerOn(runnerA);
    await upgraded.diff(made.id, made.outs!, news);
    expect(readdirSync(runnerA)).toEqual([]);
  });

  it("an unanswered entry is settled by a call that shows the state recording any object of the resource", async () => {
    const mark = "f5".repeat(16);
    const a = await providerOn(runnerA);
    const news = (await a.check({}, inputs("adopted-elsewhere", mark))).inputs!;
    // Another runner's run recorded this notebook; this runner kept what its killed create left: an entry without an id.
    const made = await a.create(news);
    const later = await providerOn(runnerA);
    const { recordCreate } = await import("../../provider/create-journal");
    recordCreate(mark, { noun: "notebook", name: String(news.name), sentAt: new Date().toISOString() });
    await later.diff(made.id, made.outs!, news);
    expect(readdirSync(runnerA)).toEqual([]);
  });

  it("a replacement created beside the old notebook (create before delete) never takes the old one", async () => {
    const mark = "c3".repeat(16);
    const a = await providerOn(runnerA);
    const news = (await a.check({}, inputs("replaced-beside", mark))).inputs!;
    const old = await a.create(news);
    // `up --replace <urn>` on the plugin front with deleteBeforeReplace unset: Check with no olds, then
    // Create while the old notebook still runs; the engine deletes the old one after.
    const next = await providerOn(runnerA);
    const outcome = await next.create(news).then(
      (r) => r.id,
      () => "refused",
    );
    expect(outcome).not.toBe(old.id);
  });
});
