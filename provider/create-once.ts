/**
 * The one create path of every resource kind: send a create at most once, and
 * adopt only what carries this resource's mark (see ownership.ts).
 *
 * Before a create, the objects listed under the name are sorted by mark. One
 * of ours that is alive is adopted (an earlier run was interrupted after
 * sending its create); one of ours that Failed is removed first, so it is
 * never left behind; any other holder of the name is refused, named, whether
 * the name was pinned or derived. When the answer to the create is lost, the
 * list is watched for the mark; if it has not shown by then, the create is
 * "unconfirmed": the state records a provisional id, the name and the mark
 * (see UnconfirmedCreate), and later runs resolve that id by the mark instead
 * of sending a second create while the first may still appear.
 */
import { AicpError } from "../client/errors";
import { cancelled, pause } from "./cancellation";
import { pollDefaults } from "./notebook-wait";

/** What createOnce needs to know about one kind and one create. */
export interface CreateTarget<T> {
  /** "notebook" or "resource group", for messages. */
  noun: string;
  /** Where names are unique, for messages: "namespace usr-1", "this account". */
  place: string;
  name: string;
  /** This resource's mark; undefined adopts nothing. */
  mark: string | undefined;
  idOf(object: T): string;
  markOf(object: T): string | undefined;
  statusOf(object: T): string | undefined;
  /** True for an object already on its way out (a deleted notebook still listed): never adopted, never in the way. */
  goingAway?(object: T): boolean;
  /** Every object named exactly `name`, Failed ones included. */
  findByName(): Promise<T[]>;
  /** Sends the create. */
  send(): Promise<T>;
  /** Removes an object of ours that Failed, before creating again. */
  removeFailed(object: T): Promise<void>;
  /** How long to watch the list for the mark after a create whose answer was lost. */
  watchMs: number;
}

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
 * appear: until then it is never taken as "not made" (no second create, no
 * "deleted" on destroy). AICP_UNCONFIRMED_CREATE_WINDOW_MS shortens it for tests.
 */
export function unconfirmedWindowMs(): number {
  const fromEnv = Number(process.env.AICP_UNCONFIRMED_CREATE_WINDOW_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 15 * 60_000;
}

/**
 * The object this resource stands for: one of ours already listed under the
 * name (`adopted`: made by an earlier, interrupted run, perhaps from other
 * settings), else the answer to one create. Throws AICP_CONFLICT when another
 * holds the name, UnconfirmedCreate when the create's answer was lost and
 * nothing with the mark showed within `watchMs`.
 */
export async function createOnce<T>(target: CreateTarget<T>): Promise<{ object: T; adopted: boolean }> {
  const named = (await target.findByName()).filter((o) => !target.goingAway?.(o));
  const ours = target.mark === undefined ? [] : named.filter((o) => target.markOf(o) === target.mark);
  const alive = ours.find((o) => !isFailed(target.statusOf(o)));
  if (alive) return { object: alive, adopted: true };
  const others = named.filter((o) => !ours.includes(o));
  if (others.length > 0) throw notOurs(target, others);
  for (const failed of ours) await target.removeFailed(failed);
  const sentAt = new Date().toISOString();
  try {
    return { object: await target.send(), adopted: false };
  } catch (error) {
    if (!(error instanceof AicpError && error.outcomeUnknown)) throw error;
    const appeared = await watchFor(target, target.watchMs);
    if (appeared) return { object: appeared, adopted: false };
    const id = provisionalId(target.mark, target.name);
    const until = new Date(Date.parse(sentAt) + unconfirmedWindowMs()).toISOString();
    throw new UnconfirmedCreate(
      error,
      `${error.message} No ${target.noun} named '${target.name}' with this resource's mark was listed in ${target.place} within ` +
          `${Math.round(target.watchMs / 1000)} s. The state records the create as unconfirmed (id ${id}); the next \`pulumi up\`, ` +
          `\`pulumi refresh\` or \`pulumi destroy\` looks for it by its mark and sends no second create before ${until}.`,
      id,
      sentAt,
    );
  }
}

/** Polls the name lookup for an object of ours, up to timeoutMs; undefined if none shows. */
export async function watchFor<T>(target: Pick<CreateTarget<T>, "findByName" | "markOf" | "mark" | "goingAway">, timeoutMs: number, intervalMs = 1000): Promise<T | undefined> {
  if (target.mark === undefined) return undefined;
  const deadline = Date.now() + timeoutMs;
  let interval = Math.min(intervalMs, pollDefaults().initialIntervalMs);
  for (;;) {
    const found = (await target.findByName()).find((o) => target.markOf(o) === target.mark && !target.goingAway?.(o));
    // On Ctrl-C the create is recorded as unconfirmed rather than watched for longer.
    if (found || cancelled() || Date.now() + interval > deadline) return found;
    await pause(interval);
    interval = Math.min(10_000, Math.round(interval * 1.5));
  }
}

/**
 * What a provisional id stands for now: the object, once listed with the
 * mark; "pending" while it may still appear; "never made" once the window
 * after the create has passed without it.
 */
export async function resolveProvisional<T>(
  target: Pick<CreateTarget<T>, "findByName" | "markOf" | "mark" | "goingAway">,
  sentAt: unknown,
  waitMs: number,
): Promise<{ found: T } | { pending: string } | { neverMade: true }> {
  const sent = typeof sentAt === "string" ? Date.parse(sentAt) : NaN;
  const until = (Number.isNaN(sent) ? Date.now() : sent) + unconfirmedWindowMs();
  const found = await watchFor(target, Math.max(0, Math.min(waitMs, until - Date.now())));
  if (found) return { found };
  return Date.now() >= until ? { neverMade: true } : { pending: new Date(until).toISOString() };
}

function isFailed(status: string | undefined): boolean {
  return (status ?? "").toLowerCase() === "failed";
}

function notOurs<T>(target: CreateTarget<T>, others: T[]): AicpError {
  const listed = others.map((o) => `${target.idOf(o)} (${target.statusOf(o) ?? "status unknown"}${target.markOf(o) ? ", made by another Pulumi resource" : ", not made by Pulumi"})`);
  return new AicpError(
    "AICP_CONFLICT",
    `${target.place} already holds a ${target.noun} named '${target.name}': ${listed.join(", ")}. It does not carry this resource's mark, ` +
      "so the provider will not adopt it or send a second create under its name. Choose another `name` (or a different resource name for an " +
      `auto-name), or remove that ${target.noun} first if it is no longer used.`,
  );
}

/** Resolves after ms. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The object, or undefined when two direct lookups a pause apart both miss it:
 * one answer that omits an object (pages shifting under other writers, a
 * lagging replica) proves nothing. `again` is true for the second lookup.
 */
export async function lookedUpTwice<T>(lookup: (again: boolean) => Promise<T | undefined>): Promise<T | undefined> {
  const first = await lookup(false);
  if (first) return first;
  await sleep(pollDefaults().initialIntervalMs);
  return lookup(true);
}

/** An error the engine understands as "created, with this id, but not initialized": it records the object. */
export function partlyCreated(noun: string, error: unknown, id: string, properties: Record<string, unknown>): Error {
  const message = error instanceof Error ? error.message : String(error);
  // Led by the cause's code, as every error that leaves the provider is (client/errors.ts asOneLine).
  const code = error instanceof AicpError && !message.startsWith(`${error.code}:`) ? `${error.code}: ` : "";
  return Object.assign(new Error(`${code}${noun} ${id}: ${message}`), { id, properties, reasons: [`${code}${message}`] });
}

/** The error of an operation on an object whose create is still unconfirmed (see resolveProvisional). */
export function stillUnconfirmed(noun: string, place: string, props: { name?: unknown; createSentAt?: unknown }, until: string): AicpError {
  return new AicpError(
    "AICP_WAIT",
    `the create of ${noun} '${String(props.name)}' sent at ${String(props.createSentAt)} is still unconfirmed: no ${noun} with this resource's mark ` +
      `is listed in ${place}. The provider sends no second create and reports nothing deleted before ${until}, ` +
      "when a create that never appeared counts as not made. Run the command again later.",
  );
}
