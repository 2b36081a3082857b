/**
 * The create journal: a file per create sent, written before the request
 * leaves and kept until the engine's state is seen to hold the object. It is
 * what outlives a provider killed while its create is in flight (kill -9, a
 * second Ctrl-C, a crashed runner), when the engine has recorded nothing and
 * the platform may list the new object only later: the next create of the
 * same resource finds the entry and sends no second create (create-once.ts).
 *
 * The journal lives where pulumi runs: `AICP_CREATE_JOURNAL_DIR`, else
 * `$PULUMI_HOME/aicp/create-journal`, else `~/.pulumi/aicp/create-journal`.
 * A fresh CI runner starts with an empty one unless the pipeline keeps that
 * folder (as many keep `~/.pulumi` for plugins); README, "Safety", says so.
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
}

/** Entries older than this are dropped: no platform lists a create a week late. */
const maxAgeMs = 7 * 86_400_000;

/** The folder of the journal (see the module comment). */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AICP_CREATE_JOURNAL_DIR) return env.AICP_CREATE_JOURNAL_DIR;
  return join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "aicp", "create-journal");
}

function fileOf(mark: string): string {
  return join(journalDir(), `${mark}.json`);
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
  mkdirSync(journalDir(), { recursive: true });
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

/**
 * Called with what the engine's state records for a resource (each lifecycle
 * call the engine makes with an id): the entry is removed once the state holds
 * the object it describes, its id, or an unconfirmed record of this create or
 * a later one. Any other record with the same mark is not it: the old object
 * of a replacement keeps the mark while the new one's create may be in flight.
 */
export function settleWithState(mark: unknown, recordedId: string, createSentAt: unknown): void {
  const entry = isMark(mark) ? sentCreate(mark) : undefined;
  if (!entry) return;
  const holdsTheObject = entry.id !== undefined && entry.id === recordedId;
  const holdsTheRecord =
    recordedId.startsWith("unconfirmed-create-") && typeof createSentAt === "string" && Date.parse(createSentAt) >= Date.parse(entry.sentAt);
  if (holdsTheObject || holdsTheRecord) forgetCreate(mark);
}

let warned = false;

/** A journal that cannot be read or written is said once; the operation goes on (the error names no path). */
function unusable(error: unknown): void {
  if (warned) return;
  warned = true;
  const code = (error as NodeJS.ErrnoException).code ?? "an error";
  void warn(
    `the create journal cannot be used (${code}): if pulumi is killed while a create is in flight, the next run cannot know it was sent. ` +
      "Set AICP_CREATE_JOURNAL_DIR to a folder this user can write (README, Ownership, lost answers and crashes).",
  );
}
