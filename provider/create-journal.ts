/**
 * The create journal: a file per create sent, written before the request
 * leaves and kept until the Create call hands the engine an id, or a later
 * call shows the state holding it (settledOnReturn, settledByRecord;
 * docs/identity.md). It is
 * what outlives a provider killed while its create is in flight (kill -9, a
 * second Ctrl-C, a crashed runner), when the engine has recorded nothing and
 * the platform may list the new object only later: the next create of the
 * same resource finds the entry and sends no second create (create-once.ts).
 *
 * The journal lives where pulumi runs: `AICP_CREATE_JOURNAL_DIR`, else
 * `$PULUMI_HOME/aicp/create-journal`, else `~/.pulumi/aicp/create-journal`.
 * A fresh CI runner starts with an empty one unless the pipeline keeps that
 * folder (as many keep `~/.pulumi` for plugins); docs/safety.md says so.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { warn } from "./engine-log";
import { isMark } from "./ownership";

/** One create sent for one resource (its mark). */
export interface JournalEntry {
  /** The kind, for messages: "notebook" or "resource group". */
  noun: string;
  name: string;
  /** When the create was sent (ISO 8601, this machine's clock). */
  sentAt: string;
  /** The object's id, once the create's answer named it. */
  id?: string;
  /** The resource's place in its stack (ownership.ts placeEnvName): two stacks that share a pinned identity share marks, not places. */
  place?: string;
}

/** Entries older than this are dropped: no platform lists a create a week late. */
const maxAgeMs = 7 * 86_400_000;

/** The folder of the journal (see the module comment). */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AICP_CREATE_JOURNAL_DIR) return env.AICP_CREATE_JOURNAL_DIR;
  return join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "aicp", "create-journal");
}

/** The folder as this process's environment named it when it started: a process writes one journal. */
const directory = journalDir();

/** The folder this process's journal is in (journalDir as it was when the process started). */
export function journalFolder(): string {
  return directory;
}

function fileOf(mark: string): string {
  return join(directory, `${mark}.json`);
}

/** The entry of a create this resource sent and the state may not hold yet, if any. */
export function sentCreate(mark: string | undefined): JournalEntry | undefined {
  if (!isMark(mark)) return undefined;
  let entry: JournalEntry;
  try {
    entry = JSON.parse(readFileSync(fileOf(mark), "utf8")) as JournalEntry;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") unusable(error);
    return undefined;
  }
  const sent = Date.parse(entry.sentAt);
  if (Number.isNaN(sent) || Date.now() - sent > maxAgeMs) {
    forgetCreate(mark);
    return undefined;
  }
  return entry;
}

/**
 * Writes the entry, durably, before the create is sent: a create the journal
 * does not hold must not leave. Throws when the journal cannot be written.
 */
export function recordCreate(mark: string, entry: JournalEntry): void {
  if (!isMark(mark)) return;
  const file = fileOf(mark);
  mkdirSync(directory, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(entry));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/** Adds the id the create's answer named (or the object an earlier create made, once found). */
export function noteCreatedId(mark: string | undefined, id: string): void {
  const entry = sentCreate(mark);
  if (!entry || entry.id === id) return;
  try {
    recordCreate(mark!, { ...entry, id });
  } catch (error) {
    unusable(error);
  }
}

/** Removes the entry: the create was refused, or the engine's state holds the object now. */
export function forgetCreate(mark: unknown): void {
  if (!isMark(mark)) return;
  try {
    rmSync(fileOf(mark), { force: true });
  } catch (error) {
    unusable(error);
  }
}

/** The process that started this one: the engine (the pulumi CLI), which receives each answer. */
const engineAtStart = process.ppid;

/** Whether the engine that started this process is still there: killed (kill -9, a runner's timeout), this process is adopted by another. */
export function engineAlive(): boolean {
  return process.ppid === engineAtStart;
}

/**
 * Runs one Create call of the engine and settles this resource's entry when the call hands the engine an
 * id (docs/identity.md, "settled on the id"): a result, or an error that carries one (a partly created
 * object, an unconfirmed create's record). From then on the state holds the evidence, and the entry would
 * only mislead a later create: after another runner deleted the object it would wait for a create that
 * was answered, and a replacement created beside the old object would take the old one. An error that
 * carries no id leaves the entry: the engine recorded nothing, and an earlier create may still appear.
 * Nor is anything settled once the engine is gone (`alive`): a provider outliving a killed CLI finishes
 * its create, and its answer reaches no state; the entry, with the id, lets the next run adopt the object.
 */
export async function settledOnReturn<T>(mark: unknown, create: () => Promise<T>, alive: () => boolean = engineAlive): Promise<T> {
  let result: T;
  try {
    result = await create();
  } catch (error) {
    const id = (error as { id?: unknown } | null)?.id;
    if (typeof id === "string" && id !== "" && alive()) {
      forgetCreate(mark);
      noteRecordedId(id);
    }
    throw error;
  }
  if (alive()) forgetCreate(mark);
  const id = (result as { id?: unknown } | null)?.id;
  if (typeof id === "string" && id !== "") noteRecordedId(id);
  return result;
}

/**
 * Called at the engine boundary with what the state records for a resource (diff, read, update and delete
 * carry it): the resource's entry is settled, whatever id its create answered with or whether it answered.
 * The state holds an object of the resource from now on, and is the evidence: the entry's object is that one
 * (an entry kept because the engine was gone at the answer, or one another runner adopted), or a second
 * create of it, which only misleads a later create (docs/identity.md; the identity model found an unanswered
 * entry taking a colleague's copy after another runner had adopted and deleted the entry's own object).
 */
export function settledByRecord(mark: unknown, recordedId: string): void {
  sawRecorded(mark);
  noteRecordedId(recordedId);
  if (isMark(mark) && sentCreate(mark)) forgetCreate(mark);
}

/** Marks of the resources whose object this process saw the state record (see sawRecorded). */
let recordedMarks = new Set<string>();
/** Whether this process sees every record before a create (seesEveryRecord). */
let everyRecordSeen = false;

/**
 * Called at the engine boundary when a call shows the state recording an object of the resource `mark`: a
 * check with old inputs, or a call that carries an id.
 */
export function sawRecorded(mark: unknown): void {
  if (isMark(mark)) recordedMarks.add(mark);
}

/**
 * Called by a front on which the engine shows this process every object the state records before it
 * creates one beside it: the TypeScript front, whose SDK sets deleteBeforeReplace on every resource
 * (sdk/forward.ts), so that a replacement's create follows the old object's Delete, which carries its id;
 * the engine's other calls for a recorded resource (a check with old inputs, a diff) carry it too. Not the
 * plugin, unless the stack's autonaming setting says so of a resource (deletesFirst): a targeted replacement
 * (`up --replace`) is checked without old inputs and diffed not at all, and may be created beside the old
 * object. Where the engine skips that Delete (`retainOnDelete`, `deletedWith`)
 * or a transform turns deleteBeforeReplace off, this does not hold (docs/identity.md, "Open").
 */
export function seesEveryRecord(): void {
  everyRecordSeen = true;
}

/** Marks of the resources the engine deletes first on every replacement in this run (deletesFirst). */
let deletingFirst = new Set<string>();

/**
 * Called by the plugin front for a resource whose check showed that the engine deletes first on every
 * replacement of it (plugin/autonaming.ts engineDeletesFirst): for that resource this process sees every
 * record before a create, as seesEveryRecord says of the TypeScript front.
 */
export function deletesFirst(mark: unknown): void {
  if (isMark(mark)) deletingFirst.add(mark);
}

/**
 * Whether the state may record an object of the resource `mark` that this process did not see: where the
 * engine shows every record before a create (seesEveryRecord, deletesFirst), only when a call showed one;
 * elsewhere always.
 */
export function mayBeRecorded(mark: string): boolean {
  return !(everyRecordSeen || deletingFirst.has(mark)) || recordedMarks.has(mark);
}

/** Ids this process saw the state record or hand to it (noteRecordedId). */
let recordedIds = new Set<string>();

/** Called at the engine boundary with an id a call carries or a Create returns: the state records that object. */
export function noteRecordedId(id: string): void {
  recordedIds.add(id);
}

/** Whether this process saw the state record, or handed it, the object `id` (noteRecordedId). */
export function recordedHere(id: string): boolean {
  return recordedIds.has(id);
}

/** Forgets what sawRecorded noted: a new engine run in this process (the identity model runs one per command). */
export function newEngineRun(): void {
  recordedMarks = new Set();
  recordedIds = new Set();
  deletingFirst = new Set();
}

let warned = false;

/** A journal that cannot be read or written is said once; the operation goes on (the error names no path). */
function unusable(error: unknown): void {
  if (warned) return;
  warned = true;
  const code = (error as NodeJS.ErrnoException).code ?? "an error";
  void warn(
    `the create journal cannot be used (${code}): if pulumi is killed while a create is in flight, the next run cannot know it was sent. ` +
      "Set AICP_CREATE_JOURNAL_DIR to a folder this user can write (docs/safety.md).",
  );
}
