/**
 * Fresh runners for test/contract/fresh-runner.test.ts: a provider process started as a new CI job starts, with
 * an empty create journal of its own, on either front, against the test's emulator; and a create killed before its
 * answer reached an engine. Kept apart so the test file holds the cases, and each runner's journal is removed with it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import type { Emulator } from "../../emulator";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { emulatorSettings } from "./emulator";
import { validNotebookInputs } from "./fixtures";

/** A notebook's Check and Create as the engine calls them, on either front. */
export interface NotebookAtEngine {
  check(olds: object, news: NotebookInputs): Promise<{ inputs?: NotebookInputs }>;
  create(inputs: NotebookInputs): Promise<{ id: string; outs?: Record<string, unknown> }>;
}

/** A notebook's inputs under `name` with the mark `mark`, quick to become ready. */
export const notebookInputs = (name: string, mark: string): NotebookInputs =>
  validNotebookInputs({ logicalName: name, autoNameSuffix: "f2e5a11", ownerMark: mark, readyTimeoutSeconds: 5 });

/** Runners against the emulator `emulator` gives once it has started; `removeAll` removes their journals. */
export function freshRunners(emulator: () => Emulator) {
  const runners: string[] = [];

  /** A provider process on a runner of its own (an empty journal); `front` is how the engine reaches it. */
  async function freshRunner(front: "typescript" | "plugin", settings: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), "aicp-fresh-runner-"));
    runners.push(dir);
    process.env.AICP_CREATE_JOURNAL_DIR = dir;
    vi.resetModules();
    (await import("../../provider/timing")).useTimings({ pollIntervalMs: 50 });
    (await import("../../provider/context")).configureFrom(emulatorSettings(emulator(), settings));
    const provider = await import("../../provider");
    const atEngine = (front === "typescript" ? provider.forKind("Notebook") : provider.reportedOperations("Notebook")) as unknown as NotebookAtEngine;
    return { atEngine, notebook: await import("../../provider/notebook") };
  }

  /** `pulumi up` killed on its runner while the create was in flight: the platform made the notebook, the engine recorded nothing. */
  async function killedCreate(name: string, mark: string): Promise<{ news: NotebookInputs; uuid: string }> {
    const { atEngine, notebook } = await freshRunner("typescript");
    const news = (await atEngine.check({}, notebookInputs(name, mark))).inputs!;
    // The kind's own create: its answer never reaches an engine (provider/index.ts lifecycle is where it would).
    const made = await notebook.create(news);
    return { news, uuid: made.id };
  }

  const removeAll = () => {
    for (const dir of runners) rmSync(dir, { recursive: true, force: true });
  };
  return { freshRunner, killedCreate, removeAll };
}
