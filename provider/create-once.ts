/**
 * The one create path of every resource kind: send a create at most once, and
 * adopt only what this resource's own create made (see ownership.ts).
 *
 * A mark is text a person can copy, so a marked object is this resource's
 * only with evidence of its own create: an entry of the create journal
 * (create-journal.ts: written before the create leaves, it outlives a killed
 * process) or a provisional record in the state, and an object that answers
 * to it: the id the create's answer named, or made after the create was sent.
 * Before a create, the name is looked up: an object of ours that is alive is
 * adopted (an earlier run sent its create and ended before the engine
 * recorded it); one of ours that Failed is removed first; any other holder of
 * the name is refused, named (a copy of our mark included). While an earlier
 * create may still appear, no second one is sent. When the answer to the
 * create is lost, the list is watched for the mark; if nothing shows, the
 * create is "unconfirmed": the state records a provisional id, the name and
 * the mark (UnconfirmedCreate), and later runs resolve that id by the mark.
 * Past its window a create that never showed is not taken as "not made": the
 * provider cannot tell it from a late one, and asks the user (pastWindow).
 */
import { AicpError } from "../client/errors";
import { type Evidence, inMadeOrder, madeAsStated, madeBy, madeClosestTo, type SentCreate } from "./create-evidence";
import { cancelled } from "./cancellation";
import { forgetCreate, noteCreatedId, recordCreate, mayBeRecorded } from "./create-journal";
import { warn } from "./engine-log";
import { PollSchedule, pollIntervals } from "./poll";
import { sleep } from "../client/sleep";
import { currentTimings } from "./timing";
import { entryOf, notOurs } from "./name-holders";

export { nameHeldByAnother, type NameHolders } from "./name-holders";

/** What createOnce needs to know about one kind and one create. */
export interface CreateTarget<T> extends Evidence<T> {
  /** "notebook" or "resource group", for messages. */
  noun: string;
  /** Where names are unique, for messages: "namespace usr-1", "this account". */
  place: string;
  name: string;
  /** This resource's mark; undefined adopts nothing. */
  mark: string | undefined;
  markOf(object: T): string | undefined;
  statusOf(object: T): string | undefined;
  /** True for an object already on its way out (a deleted notebook still listed): never adopted, never in the way. */
  goingAway?(object: T): boolean;
  /** Every object named exactly `name`, Failed ones included. */
  findByName(): Promise<T[]>;
  /** Sends the create; `sentAt` is its send time, which the object states where the kind can (statedSentAtOf). */
  send(sentAt: string): Promise<T>;
  /** Removes an object of ours: one that Failed, before creating again; a second create of the resource (otherCreates). */
  remove(object: T): Promise<void>;
  /** How long to watch the list for the mark after a create whose answer was lost. */
  watchMs: number;
}

/** What a lookup by mark needs: the name lookup, the mark, and what tells our object from a copy. */
type MarkLookup<T> = Pick<
  CreateTarget<T>,
  "findByName" | "markOf" | "mark" | "goingAway" | "idOf" | "createdAtOf" | "createdAtUncertaintyMs" | "statedSentAtOf" | "stackPlace" | "statedStackPlaceOf"
>;

/** A create was sent and may have been made, but no object with its mark is listed yet. */
export class UnconfirmedCreate extends AicpError {
  constructor(
    cause: AicpError,
    message: string,
    readonly provisionalId: string,
    readonly sentAt: string,
  ) {
    super(cause.code, message, { ...cause, cause });
  }
}

/** The id recorded for a create whose outcome is not known yet. */
export function provisionalId(mark: string | undefined, name: string): string {
  return `${unconfirmedPrefix}${mark ?? name}`;
}

/** True for an id recorded by an unconfirmed create. */
export function isProvisional(id: string): boolean {
  return id.startsWith(unconfirmedPrefix);
}

const unconfirmedPrefix = "unconfirmed-create-";

/**
 * How long after an unconfirmed create the provider keeps expecting it to
 * appear ("pending"); after it, a create that never showed is put to the
 * user (pastWindow), never taken as not made (timing.ts).
 */
export function unconfirmedWindowMs(): number {
  return currentTimings().unconfirmedCreateWindowMs;
}

/**
 * The object this resource stands for: one of ours already listed under the
 * name (`adopted`: made by an earlier run's create, perhaps from other
 * settings), else the answer to one create. Throws AICP_CONFLICT when another
 * holds the name, UnconfirmedCreate when the create's answer was lost (or an
 * earlier create may still appear) and nothing of ours showed within `watchMs`.
 */
export async function createOnce<T>(target: CreateTarget<T>): Promise<{ object: T; adopted: boolean }> {
  const earlier = entryOf(target);
  const named = (await target.findByName()).filter((o) => !target.goingAway?.(o));
  const ours = named.filter((o) => target.markOf(o) === target.mark && madeByCreateOf(target, o, earlier));
  const living = ours.filter((o) => !isFailed(target.statusOf(o)));
  // Of several, the journal's own create; without a journal, the first made: the same choice in every process.
  const alive = earlier ? madeClosestTo(target, living, earlier) : inMadeOrder(target, living)[0];
  if (alive) {
    noteCreatedId(target.mark, target.idOf(alive));
    return { object: alive, adopted: true };
  }
  const others = named.filter((o) => !ours.includes(o));
  if (others.length > 0) throw notOurs(target, others, earlier);
  for (const failed of ours) await target.remove(failed);
  // An earlier create of this resource, not recorded by the engine and not listed yet, may still appear.
  if (earlier && ours.length === 0) return awaitEarlier(target, earlier);
  const sentAt = new Date().toISOString();
  await journal(target, sentAt);
  let object: T;
  try {
    object = await target.send(sentAt);
  } catch (error) {
    if (!(error instanceof AicpError && error.outcomeUnknown)) {
      forgetCreate(target.mark);
      throw error;
    }
    const { found: appeared } = await watchFor(target, target.watchMs, { sentAt });
    if (appeared) {
      noteCreatedId(target.mark, target.idOf(appeared));
      return { object: appeared, adopted: false };
    }
    const id = provisionalId(target.mark, target.name);
    throw new UnconfirmedCreate(
      error,
      `${error.message} No ${target.noun} named '${target.name}' with this resource's mark was listed in ${target.place} within ` +
        `${Math.round(target.watchMs / 1000)} s. The state records the create as unconfirmed (id ${id}); the next \`pulumi up\`, ` +
        `\`pulumi refresh\` or \`pulumi destroy\` looks for it by its mark and never sends a second create while it may appear.`,
      id,
      sentAt,
    );
  }
  noteCreatedId(target.mark, target.idOf(object));
  return { object, adopted: false };
}

/**
 * Whether a marked object is this resource's by the evidence this process has: the journal's entry of its
 * create (madeBy); without one, while the state records no object of this resource, the send time the object
 * states (madeAsStated: a killed create resumed on another runner). Where the state may record one (a
 * replacement, an unconfirmed create, any create on the plugin: create-journal.ts mayBeRecorded), an object
 * the journal does not answer for is not taken: it may be the recorded one, which the engine deletes after a
 * replacement is created beside it (docs/identity.md).
 */
function madeByCreateOf<T>(target: CreateTarget<T>, object: T, earlier: SentCreate | undefined): boolean {
  if (earlier) return madeBy(target, object, earlier);
  return target.mark !== undefined && !mayBeRecorded(target.mark) && madeAsStated(target, object);
}

/** Writes the journal entry before the create leaves; a journal that cannot be written is said, not fatal. */
async function journal<T>(target: CreateTarget<T>, sentAt: string): Promise<void> {
  if (target.mark === undefined) return;
  try {
    recordCreate(target.mark, { noun: target.noun, name: target.name, sentAt, ...(target.stackPlace === undefined ? {} : { place: target.stackPlace }) });
  } catch (error) {
    await warn(
      `the create journal could not be written (${(error as NodeJS.ErrnoException).code ?? "error"}): if this run is killed while the create of ` +
        `${target.noun} ` +
        `'${target.name}' is in flight, the next run cannot know it was sent. Set AICP_CREATE_JOURNAL_DIR to a folder this user can write.`,
    );
  }
}

/** An earlier create (from the journal) may still appear: watch for it, then record it as unconfirmed; never send a second one. */
async function awaitEarlier<T>(target: CreateTarget<T>, earlier: SentCreate): Promise<{ object: T; adopted: boolean }> {
  const { found: appeared, unproven } = await watchFor(target, target.watchMs, earlier);
  if (appeared) {
    noteCreatedId(target.mark, target.idOf(appeared));
    return { object: appeared, adopted: true };
  }
  const id = provisionalId(target.mark, target.name);
  const cause = new AicpError("AICP_WAIT", `an earlier create of ${target.noun} '${target.name}' may still appear.`);
  throw new UnconfirmedCreate(
    cause,
    `an earlier run sent the create of ${target.noun} '${target.name}' at ${earlier.sentAt} and ended before Pulumi recorded it (the create journal holds ` +
      `it); ` +
      `no ${target.noun} it made is listed in ${target.place} yet, and a platform may list a new one late. No second create was sent. ` +
      `The state records the create as unconfirmed (id ${id}); the next \`pulumi up\` or \`pulumi refresh\` looks for it by its mark.` +
      unprovenText(target, unproven, target.noun),
    id,
    earlier.sentAt,
  );
}

/**
 * Polls the name lookup for the object `sent` made, up to timeoutMs: `found` if one shows, and, from the last
 * look, `unproven`: objects with the mark that the evidence does not tie to `sent` (madeBy), for messages.
 */
export async function watchFor<T>(target: MarkLookup<T>, timeoutMs: number, sent: SentCreate, intervalMs = 1000): Promise<{ found?: T; unproven: T[] }> {
  if (target.mark === undefined) return { unproven: [] };
  const schedule = new PollSchedule(timeoutMs, { initialIntervalMs: Math.min(intervalMs, pollIntervals().initialIntervalMs), maxIntervalMs: 10_000 });
  for (;;) {
    const marked = (await target.findByName()).filter((o) => target.markOf(o) === target.mark && !target.goingAway?.(o));
    const found = madeClosestTo(
      target,
      marked.filter((o) => madeBy(target, o, sent)),
      sent,
    );
    // On Ctrl-C the create is recorded as unconfirmed rather than watched for longer.
    if (found || cancelled() || schedule.lastLook) return { found, unproven: found ? [] : marked };
    await schedule.next();
  }
}

/**
 * What a message says of marked objects the evidence does not tie to a create (watchFor's `unproven`), or ""
 * when there are none: named, never "not listed" (docs/identity.md).
 */
export function unprovenText<T>(target: Pick<MarkLookup<T>, "idOf" | "createdAtOf">, unproven: T[], noun: string): string {
  if (unproven.length === 0) return "";
  const listed = unproven.map(
    (o) => `${target.idOf(o)} (made ${Number.isNaN(target.createdAtOf(o)) ? "at an unknown time" : new Date(target.createdAtOf(o)).toISOString()})`,
  );
  return (
    ` Listed with this resource's mark, but not made by that create (made before it was sent, or after this moment, by more than this machine's clock ` +
    `and the platform's can disagree): ${listed.join(", ")}; a copy of its settings is never taken for the ${noun}.`
  );
}

/**
 * What a provisional id stands for now: the object its create made, once
 * listed; "pending" while it may still appear; "pastWindow" once the window
 * after the create has passed without it (it may still appear: the user decides).
 */
export async function resolveProvisional<T>(
  target: MarkLookup<T>,
  sentAt: unknown,
  waitMs: number,
): Promise<{ found: T } | { pending: string; unproven: string } | { pastWindow: string; unproven: string }> {
  const sent = typeof sentAt === "string" ? Date.parse(sentAt) : NaN;
  // Without a send time no object can be told from a copy, and no window can end: the user decides.
  if (Number.isNaN(sent)) return { pastWindow: "an unknown time (the record holds no send time)", unproven: "" };
  const until = sent + unconfirmedWindowMs();
  const { found, unproven } = await watchFor(target, Math.max(0, Math.min(waitMs, until - Date.now())), { sentAt: new Date(sent).toISOString() });
  if (found) return { found };
  const at = new Date(until).toISOString();
  const named = unprovenText(target, unproven, "create");
  return Date.now() >= until ? { pastWindow: at, unproven: named } : { pending: at, unproven: named };
}

function isFailed(status: string | undefined): boolean {
  return (status ?? "").toLowerCase() === "failed";
}

/**
 * docs/identity.md, "Convergence": after a create this process sent, what the list shows of the creates of the
 * resource (one killed on another runner and not listed when this one was sent, or a run racing this one after
 * `pulumi cancel`). Every object the list shows with the resource's mark, alive (not Failed, not going away)
 * and made as it states (madeAsStated), is a candidate; `own` counts only as the list shows it, by the same
 * rule, so that every process that sees the same list keeps the same object: the first in made order
 * (inMadeOrder). The others, and `own` when it is not that one, are to be removed. Undefined when `own` is the
 * one kept, when no other candidate shows, or where the state may record an object of the resource
 * (mayBeRecorded: then another may be the object a replacement replaces). The journal's entry names the kept id.
 */
export async function otherCreates<T>(target: MarkLookup<T> & Pick<CreateTarget<T>, "statusOf">, own: T): Promise<{ keep: T; remove: T[] } | undefined> {
  if (target.mark === undefined || mayBeRecorded(target.mark)) return undefined;
  const listed = await target.findByName();
  const candidates = inMadeOrder(
    target,
    listed.filter((o) => target.markOf(o) === target.mark && !target.goingAway?.(o) && !isFailed(target.statusOf(o)) && madeAsStated(target, o)),
  );
  const keep = candidates[0];
  if (keep === undefined || target.idOf(keep) === target.idOf(own)) return undefined;
  const ownListed = listed.find((o) => target.idOf(o) === target.idOf(own)) ?? own;
  noteCreatedId(target.mark, target.idOf(keep));
  return { keep, remove: [...candidates.slice(1).filter((o) => target.idOf(o) !== target.idOf(own)), ownListed] };
}

/**
 * The object, or undefined when two direct lookups a pause apart both miss it:
 * one answer that omits an object (pages shifting under other writers, a
 * lagging replica) proves nothing. `again` is true for the second lookup.
 */
export async function lookedUpTwice<T>(lookup: (again: boolean) => Promise<T | undefined>): Promise<T | undefined> {
  const first = await lookup(false);
  if (first) return first;
  // Not cut short by Ctrl-C: the second lookup must come a pause after the first.
  await sleep(pollIntervals().initialIntervalMs);
  return lookup(true);
}
