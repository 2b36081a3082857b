/**
 * In-process: the lookups of many operations of one provider process share
 * list walks (provider/notebook/listing.ts), and sharing changes none of the
 * answers that keep notebooks safe. Counted from the emulator's request log:
 * a walk of the whole namespace is a listNotebooks request with no filter, a
 * lookup by name one with `name`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import * as wire from "../../client/wire";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import { mapConcurrent } from "../../client/paging";
import { emulatorCredentials, emulatorSettings, emulatorZone, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";

const namespace = emulatorCredentials.userId.toLowerCase();

type NotebookModule = typeof import("../../provider/notebook");

describe("lookups shared within a provider process", () => {
  let emulator: Emulator;
  const lists = (filtered: boolean) => emulator.requests().filter((r) => r.operation === "listNotebooks" && (r.query?.name !== undefined) === filtered).length;
  const alive = () => emulator.listNotebooks().filter((n) => n.namespace === namespace && !n.auto_delete_time);
  const inputs = (name: string, extra: Partial<NotebookInputs> = {}): NotebookInputs =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "5ea7ed1", ownerMark: `mark-${name}`, readyTimeoutSeconds: 20, ...extra });

  /** A provider process of its own (fresh modules), configured for the emulator. */
  async function providerProcess() {
    vi.resetModules();
    (await import("../../provider/timing")).useTimings({ pollIntervalMs: 50 });
    (await import("../../provider/context")).configureFrom(emulatorSettings(emulator));
    const notebook: NotebookModule = await import("../../provider/notebook");
    // As the engine calls them: check fills in the namespace, the owner and the name, then create.
    const create = async (name: string, extra: Partial<NotebookInputs> = {}) => {
      const made = await notebook.create((await notebook.check({}, inputs(name, extra))).inputs!);
      return { id: made.id, outs: made.outs! };
    };
    return { ...notebook, create };
  }

  const person = () => new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 0 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.clearMisbehaviour();
    emulator.clearFaults();
    for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
    emulator.clearRequests();
  });

  /** 16 notebooks made at a parallelism of 8, each request 20 ms late, by a provider process of their own. */
  async function fleetOf16(prefix: string) {
    emulator.addFault({ kind: "latency", latencyMs: 20 });
    const notebook = await providerProcess();
    const made = await mapConcurrent(
      Array.from({ length: 16 }, (_, i) => `${prefix}-${i}`),
      8,
      (name) => notebook.create(name),
    );
    return { notebook, made };
  }

  it("16 creates at a parallelism of 8 wait for Running on shared walks: the writes of some do not send the others' polls back to the platform", async () => {
    const { made } = await fleetOf16("fleet");
    expect(made.map((m) => m.outs.status)).toEqual(Array(16).fill("Running"));
    expect(alive()).toHaveLength(16);
    // Each create's own lookup by name (its name is its own), and walks shared by the polls of creates that ended together.
    expect(lists(true)).toBe(16);
    expect(lists(false), "walks of the namespace for 16 readiness waits").toBeLessThanOrEqual(8);
  });

  it("16 destroys at a parallelism of 8 confirm each removal by shared walks and a lookup by name: no walk of its own for each notebook", async () => {
    const { notebook, made } = await fleetOf16("gone");
    emulator.clearRequests();
    await mapConcurrent(made, 8, (m) => notebook.remove(m.id, m.outs));
    expect(alive()).toHaveLength(0);
    expect(lists(true), "one lookup by name for each removal").toBe(16);
    expect(lists(false), "walks of the namespace, shared").toBeLessThan(16);
  });

  it("the deletes of a destroy, in a provider process of its own, read their notebooks from one walk before their first write", async () => {
    const { made } = await fleetOf16("destroyed");
    const destroy = await providerProcess();
    emulator.clearRequests();
    await mapConcurrent(made, 8, (m) => destroy.remove(m.id, m.outs));
    expect(alive()).toHaveLength(0);
    const log = emulator.requests().filter((r) => r.operation !== "admin");
    const firstWrite = log.findIndex((r) => r.method !== "GET");
    const walksBefore = log.slice(0, firstWrite).filter((r) => r.operation === "listNotebooks" && r.query?.name === undefined);
    expect(walksBefore, "walks of the namespace before the first stop").toHaveLength(1);
  });

  it("a destroy's delete stops a notebook its walk showed Stopped and a person started since: a status that skips the stop is read then", async () => {
    const up = await providerProcess();
    const made = await up.create("restarted", { desiredState: "Stopped" });
    const other = await up.create("other");
    const destroy = await providerProcess();
    // The destroy's first delete walks the namespace, which shows "restarted" Stopped; then a person starts it.
    await destroy.remove(other.id, other.outs);
    await person().startNotebooks(namespace, wire.startRequest(made.id, "sku-1"));
    emulator.clearRequests();
    await destroy.remove(made.id, made.outs);
    const writes = emulator.requests().filter((r) => r.method !== "GET" && r.operation !== "admin");
    expect(writes.map((r) => r.operation)).toEqual(["stopNotebooks", "setDeleteTime"]);
    expect(alive()).toHaveLength(0);
  });

  it("a lookup made after someone else's change shows that change: no answer from a walk that began before it was asked", async () => {
    const notebook = await providerProcess();
    const made = await notebook.create("changed");
    const { currentListing } = await import("../../provider/context");
    const listing = currentListing();
    expect((await listing.locate(namespace, made.id, undefined))?.status).toBe("Running");
    await person().stopNotebooks(namespace, [made.id]);
    expect((await listing.locate(namespace, made.id, undefined))?.status).toBe("Stopped");
  });

  /** A refresh as the engine drives it: a provider process of its own, configured, then read of each notebook, each behind the settings check. */
  async function refreshProcess() {
    vi.resetModules();
    (await import("../../provider/timing")).useTimings({ pollIntervalMs: 50 });
    (await import("../../provider/context")).configureFrom(emulatorSettings(emulator));
    const gated = (await import("../../provider/index")).forKind("Notebook");
    type Read = (id: string, props: unknown) => Promise<{ props?: { status?: unknown } }>;
    return { read: gated.read as unknown as Read };
  }

  it("a refresh takes the settings check's page as its walk: one list request for 30 notebooks, and for 100 (the page's total says it is all)", async () => {
    for (const count of [30, 100]) {
      for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
      const notebook = await providerProcess();
      const ours = await mapConcurrent(
        Array.from({ length: count }, (_, i) => `kept-${i}`),
        8,
        (name) => notebook.create(name),
      );
      emulator.clearRequests();
      const refresh = await refreshProcess();
      const read = await mapConcurrent(ours, 8, (o) => refresh.read(o.id, o.outs));
      expect(read.map((r) => r.props?.status)).toEqual(Array(count).fill("Running"));
      const sent = emulator.requests().filter((r) => r.operation !== "admin");
      expect(
        sent.map((r) => `${r.operation} ${r.query?.offset ?? ""}`),
        `refresh of ${count}`,
      ).toEqual(["listNotebooks 0"]);
    }
  });

  it("a total that lags ends the shared walk short, and costs the notebooks it leaves out a lookup each, never 'gone'", async () => {
    const notebook = await providerProcess();
    const ours = await mapConcurrent(
      Array.from({ length: 120 }, (_, i) => `counted-${i}`),
      8,
      (name) => notebook.create(name),
    );
    // Every list answer claims 100 matches, as a total that lags behind 20 creates would: the walk ends after its first page.
    emulator.misbehave({ claimedCount: 100 });
    emulator.clearRequests();
    const refresh = await refreshProcess();
    const read = await mapConcurrent(ours, 8, (o) => refresh.read(o.id, o.outs));
    expect(read.map((r) => r.props?.status)).toEqual(Array(120).fill("Running"));
    expect(lists(false), "the check's page, and no further page of the walk").toBe(1);
    const namesLookedUp = new Set(emulator.requests().flatMap((r) => (r.operation === "listNotebooks" && r.query?.name ? [r.query.name] : [])));
    expect(namesLookedUp.size, "a lookup by name for each of the 20 the walk left out").toBe(20);
  });

  it("Notebook.get asked after someone else's change shows it: only a refresh may read a walk from before it was asked", async () => {
    const notebook = await providerProcess();
    const made = await notebook.create("got-after-stop");
    // A new process: its first operation runs the settings check, which keeps its page; then a person stops the notebook.
    const later = await refreshProcess();
    const { checkConfiguredSettings } = await import("../../provider/context");
    await checkConfiguredSettings();
    await person().stopNotebooks(namespace, [made.id]);
    const got = await later.read(made.id, { namespace, readById: true });
    expect(got.props?.status).toBe("Stopped");
  });

  it("a write that ends after the settings changed still keeps older walks from answering for its notebook", async () => {
    const notebook = await providerProcess();
    const made = await notebook.create("written-across-reconfigure");
    const context = await import("../../provider/context");
    // A write step taken before the engine configured other settings (a new client, a new listing) ends after them.
    const { write } = context.notebookPlatform();
    context.configureFrom(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "31" }));
    const walkedAt = (await import("../../provider/notebook/listing")).listingNow();
    expect((await context.currentListing().find(namespace, made.id, walkedAt))?.status).toBe("Running");
    await write(namespace, made.id, () => person().stopNotebooks(namespace, [made.id]));
    expect((await context.currentListing().find(namespace, made.id, walkedAt))?.status, "the walk from before the write's end").toBe("Stopped");
  });

  it("the settings check's page answers no lookup asked after it: a change made between them shows", async () => {
    const notebook = await providerProcess();
    const made = await notebook.create("checked-then-stopped");
    await refreshProcess();
    const { checkConfiguredSettings, currentListing } = await import("../../provider/context");
    // The check runs before the first operation and keeps its page; a person stops the notebook; a lookup asked now must see it.
    await checkConfiguredSettings();
    await person().stopNotebooks(namespace, [made.id]);
    expect((await currentListing().locate(namespace, made.id, undefined))?.status).toBe("Stopped");
    expect(emulator.requests().filter((r) => r.operation === "listNotebooks" && r.query?.name === undefined).length).toBeGreaterThanOrEqual(2);
  });

  it("the checks of new notebooks under pinned names, one after another as the engine's step generator makes them, share one walk", async () => {
    const notebook = await providerProcess();
    emulator.clearRequests();
    for (let i = 0; i < 30; i++) {
      const checked = await notebook.check({}, inputs(`pinned-${i}`, { name: `pinned-${i}` }));
      expect(checked.failures).toBeUndefined();
    }
    expect(lists(false), "one walk of the namespace").toBe(1);
    expect(lists(true), "no lookup by name: the walk shows every name free").toBe(0);
  });

  it("a check in a namespace of more than one page, or whose walk fails, looks the name up as before: one page, then the name", async () => {
    emulator.seedNotebooks({ namespace, count: 150, namePrefix: "crowd" });
    const crowded = await providerProcess();
    emulator.clearRequests();
    await expect(crowded.check({}, inputs("mine", { name: "crowd-0149" }))).rejects.toThrow("already holds a notebook named 'crowd-0149'");
    expect((await crowded.check({}, inputs("free", { name: "free-name" }))).failures).toBeUndefined();
    expect((await crowded.check({}, inputs("free", { name: "free-name" }))).failures).toBeUndefined();
    expect(lists(false), "the first page of the namespace, which is full").toBe(1);
    expect(lists(true), "each name looked up").toBe(3);

    for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
    const unlucky = await providerProcess();
    emulator.addFault({ kind: "malformed", operation: "listNotebooks", count: 1 });
    expect((await unlucky.check({}, inputs("first", { name: "first" }))).failures).toBeUndefined();
  });

  it("a check made while a walk is in flight (an up's readiness polls) takes the newest finished walk and does not wait for that one", async () => {
    const notebook = await providerProcess();
    expect((await notebook.check({}, inputs("first", { name: "first" }))).failures).toBeUndefined();
    const { currentListing } = await import("../../provider/context");
    // A poll asks a walk now: the platform holds its answer back for a while.
    emulator.addFault({ kind: "latency", operation: "listNotebooks", latencyMs: 1000, count: 1 });
    let pollAnswered = false;
    const poll = currentListing()
      .find(namespace, "nb-none")
      .finally(() => (pollAnswered = true));
    expect((await notebook.check({}, inputs("second", { name: "second" }))).failures).toBeUndefined();
    expect(pollAnswered, "the check answered before the walk in flight").toBe(false);
    await poll;
  });

  it("a check refuses a pinned name from a walk from before it only once a lookup by that name agrees; the create looks the name up itself", async () => {
    const [goneSince] = emulator.seedNotebooks({ namespace, count: 1, namePrefix: "gone-since" });
    const notebook = await providerProcess();
    // The first check's walk lists 'gone-since-0000'; a person then removes it and makes 'made-since-0000'.
    expect((await notebook.check({}, inputs("first", { name: "first" }))).failures).toBeUndefined();
    emulator.deleteNotebook(goneSince!);
    const [madeSince] = emulator.seedNotebooks({ namespace, count: 1, namePrefix: "made-since" });
    emulator.clearRequests();
    const freed = await notebook.check({}, inputs("freed", { name: "gone-since-0000" }));
    expect(freed.failures).toBeUndefined();
    expect(lists(true), "the walk's holder, looked up by its name").toBe(1);
    // A holder made after the walk the checks share passes the check, as one made after a preview does; the create refuses it.
    const late = await notebook.check({}, inputs("late", { name: "made-since-0000" }));
    await expect(notebook.create("late", { name: "made-since-0000" })).rejects.toThrow(`'made-since-0000': ${madeSince} (Running, not made by Pulumi)`);
    expect(late.failures).toBeUndefined();
    expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(0);
  });

  it("a check asked after the walk it may share refuses a holder that walk shows, with no further request", async () => {
    const [held] = emulator.seedNotebooks({ namespace, count: 1, namePrefix: "held-now" });
    const notebook = await providerProcess();
    emulator.clearRequests();
    await expect(notebook.check({}, inputs("mine", { name: "held-now-0000" }))).rejects.toThrow(`'held-now-0000': ${held} (Running, not made by Pulumi)`);
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toHaveLength(1);
  });

  it("a shared walk that leaves notebooks out makes none of them 'gone' for a refresh or a destroy, nor a held name free for a create", async () => {
    const held = emulator.seedNotebooks({ namespace, count: 4, namePrefix: "held" });
    const names = emulator.listNotebooks().map((n) => String(n.name));
    const notebook = await providerProcess();
    const ours = await mapConcurrent(["keep-0", "keep-1", "keep-2", "keep-3"], 4, (name) => notebook.create(name));
    const everyName = [...names, ...ours.map((o) => String(o.outs.name))];
    // Every whole-namespace answer for a while leaves all eight out; lookups by name answer in full.
    emulator.misbehave({ omit: { name: everyName, answers: 50, unfiltered: true } });
    emulator.clearRequests();

    const refreshed = await mapConcurrent(ours, 4, (o) => notebook.read(o.id, o.outs));
    expect(refreshed.map((r) => r.id)).toEqual(ours.map((o) => o.id));

    const creates = await mapConcurrent(names, 4, (name) =>
      notebook.create(`taken-${name}`, { name }).then(
        () => "created",
        (e: Error) => e.message,
      ),
    );
    for (const outcome of creates) expect(outcome).toMatch(/already holds a notebook named/);
    expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(0);

    await mapConcurrent(ours, 4, (o) => notebook.remove(o.id, o.outs));
    expect(
      alive()
        .map((n) => n.uuid)
        .sort(),
    ).toEqual([...held].sort());
  });
});
