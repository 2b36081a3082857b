/**
 * The create journal (provider/create-journal.ts) against what an
 * independent review of the journal found: the journal must hold until
 * the state holds the object its entry describes (a replacement's old record
 * carries the same mark), internal updates inside a create must not clear it,
 * an unusable journal folder must not break every command, the clock of this
 * machine may run ahead of the platform's, and the plugin's `get` of another
 * stack's object is a read, not a take-over.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { eventually } from "../support/poll";

const namespace = emulatorCredentials.userId.toLowerCase();
type NotebookModule = typeof import("../../provider/notebook");

describe("the create journal under review", () => {
  let emulator: Emulator;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === namespace);
  const live = (name: unknown) => own().filter((n) => n.name === name && !n.auto_delete_time);
  const count = (op: string) => emulator.requests().filter((r) => r.operation === op).length;
  const markOf = (name: string) => createHash("md5").update(`create-journal/${name}`).digest("hex");
  const inputs = (name: string, extra: Partial<NotebookInputs> = {}): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "dead001", ownerMark: markOf(name), readyTimeoutSeconds: 1, ...extra });

  /** The times each fresh copy of the provider runs with (provider/timing.ts), as its own process would be configured. */
  const timings: { pollIntervalMs: number; unconfirmedCreateWindowMs?: number } = { pollIntervalMs: 50 };

  async function providerProcess(): Promise<{
    notebook: NotebookModule;
    server: typeof import("../../plugin/server");
    grpc: typeof import("../../plugin/grpc");
  }> {
    vi.resetModules();
    (await import("../../provider/timing")).useTimings(timings);
    const context = await import("../../provider/context");
    context.configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "0.5" }));
    return { notebook: await import("../../provider/notebook"), server: await import("../../plugin/server"), grpc: await import("../../plugin/grpc") };
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearMisbehaviour();
    emulator.clearRequests();
  });

  it("kill -9 during a replacement's create, list a minute late: the diff of the old record (same mark) keeps the journal, no second create", async () => {
    const first = await providerProcess();
    const news = (await first.notebook.check({}, inputs("replaced"))).inputs!;
    // Recorded by the engine: its Create returned (provider/index.ts lifecycle settles the journal entry then).
    const { lifecycle } = await import("../../provider");
    const old = await (lifecycle("Notebook").create as (i: NotebookInputs) => ReturnType<NotebookModule["create"]>)(news);
    // `pulumi up --replace` (or any replacing change): the delete step runs first; the engine keeps the old
    // resource in the state with pendingReplacement = true.
    await first.notebook.remove(old.id, old.outs!);
    emulator.clearRequests();
    emulator.misbehave({ listDelayMs: 60_000 });
    emulator.addFault({ kind: "latency", latencyMs: 1500, operation: "createNotebook", count: 1 });
    // The replacement's create is in flight when pulumi is killed: the engine records nothing new.
    await first.notebook.create(news).catch(() => undefined);
    await eventually(() => live(news.name).length === 1, "the platform to finish the first create");

    // Next `pulumi up` (or `pulumi preview`): the engine diffs the pendingReplacement state (same mark), then creates.
    const second = await providerProcess();
    await second.notebook.diff(old.id, old.outs!, news);
    const retried = await second.notebook.create(news).catch((e: unknown) => e as Error);
    emulator.clock.advance(60_000);
    console.log(
      `${count("createNotebook")} create request(s), ${live(news.name).length} live notebook(s); second create: ` +
        `${retried instanceof Error ? retried.message.slice(0, 160) : "succeeded " + (retried as { id: string }).id}`,
    );
    expect(count("createNotebook")).toBe(1);
  });

  it("the plugin's get of another stack's notebook (Read with empty properties, as an import) reads it", async () => {
    const p = await providerProcess();
    const made = await p.notebook.create((await p.notebook.check({}, inputs("shared-a"))).inputs!);
    const { provider: proto, toStruct } = p.grpc;
    const request = new proto.ReadRequest()
      .setId(made.id)
      .setUrn("urn:pulumi:b::proj-b::aicp:index:Notebook::shared")
      .setProperties(toStruct({}))
      .setInputs(toStruct({}));
    const handler = p.server.providerServer.read as (call: { request: unknown }, cb: (e: { details?: string } | null, r?: unknown) => void) => void;
    const outcome = await new Promise<string>((resolve) => handler({ request }, (e) => resolve(e ? `refused: ${e.details}` : "read ok")));
    console.log(`${outcome}`);
    expect(outcome).toBe("read ok");
  });

  it("an adopted notebook changed in place inside create keeps the journal: killed during that update, the next up adopts it again", async () => {
    const first = await providerProcess();
    const news = (await first.notebook.check({}, inputs("adopt-kill"))).inputs!;
    emulator.misbehave({ listDelayMs: 60_000 });
    emulator.addFault({ kind: "latency", latencyMs: 1500, operation: "createNotebook", count: 1 });
    await first.notebook.create(news).catch(() => undefined);
    await eventually(() => live(news.name).length === 1, "the platform to finish the first create");
    emulator.clearMisbehaviour();
    // The program changed an in-place field meanwhile; the next up adopts the notebook and updates it, and is killed during the update.
    const second = await providerProcess();
    const changed = (await second.notebook.check({}, inputs("adopt-kill", { image: "jupyter:2" }))).inputs!;
    const r2 = await second.notebook.create(changed).catch((e: unknown) => e as Error); // engine killed: nothing recorded
    console.log(
      `second run: ${r2 instanceof Error ? r2.message : "ok " + JSON.stringify((r2 as { outs: { desiredState?: string } }).outs.desiredState)}; ops ${emulator
        .requests()
        .map((r) => r.operation)
        .filter((o) => o !== "listNotebooks")
        .join(",")}`,
    );
    const fs = await import("node:fs");
    console.log(`journal after the second run: ${JSON.stringify(fs.readdirSync(process.env.AICP_CREATE_JOURNAL_DIR!))}`);
    const third = await providerProcess();
    const again = await third.notebook.create(changed).catch((e: unknown) => e as Error);
    console.log(`${count("createNotebook")} create(s), ${live(news.name).length} live; third run: ${again instanceof Error ? again.message : "adopted"}`);
    expect(again).not.toBeInstanceOf(Error);
  });

  it("a journal folder that cannot be used: create warns, diff and delete still work, and no message shows the path", async () => {
    const saved = process.env.AICP_CREATE_JOURNAL_DIR;
    process.env.AICP_CREATE_JOURNAL_DIR = "/etc/hostname/aicp-journal";
    try {
      const p = await providerProcess();
      const news = (await p.notebook.check({}, inputs("ro-journal"))).inputs!;
      const made = await p.notebook.create(news);
      const diffed = await p.notebook.diff(made.id, made.outs!, news).then(
        () => "diff ok",
        (e: Error) => `diff threw: ${e.message}`,
      );
      const removed = await p.notebook.remove(made.id, made.outs!).then(
        () => "delete ok",
        (e: Error) => `delete threw: ${e.message}`,
      );
      console.log(`create ok (${made.id}); ${diffed}; ${removed}`);
      expect(diffed).toBe("diff ok");
      expect(removed).toBe("delete ok");
    } finally {
      process.env.AICP_CREATE_JOURNAL_DIR = saved;
    }
  });

  it("this machine's clock 5 min ahead of the platform: after a kill mid-create the journal still claims the notebook its own create made", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5 * 60_000);
    try {
      const first = await providerProcess();
      const news = (await first.notebook.check({}, inputs("skewed"))).inputs!;
      emulator.misbehave({ listDelayMs: 60_000 });
      emulator.addFault({ kind: "latency", latencyMs: 1500, operation: "createNotebook", count: 1 });
      await first.notebook.create(news).catch(() => undefined);
      await eventually(() => live(news.name).length === 1, "the platform to finish the first create");
      emulator.clock.advance(61_000);
      const second = await providerProcess();
      const again = await second.notebook.create(news).catch((e: unknown) => e as Error);
      console.log(`${count("createNotebook")} create(s), ${live(news.name).length} live; next run: ${again instanceof Error ? again.message : "adopted"}`);
      expect(again).not.toBeInstanceOf(Error);
    } finally {
      vi.useRealTimers();
    }
  });
});
