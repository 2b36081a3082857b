/**
 * What tells the object a create made from a copy of its settings (docs/identity.md, "The evidence"): the id
 * its answer named, when it was sent (the journal's entry, or the time the object states), and when the
 * platform made it, as far as that can be known. create-once.ts decides with these; nothing here reads the
 * platform.
 */
import { hasZone } from "../client/times";

/** What the evidence reads of an object: its id, its creation time and how well that is known, the send time it states. */
export interface Evidence<T> {
  idOf(object: T): string;
  /** When the platform made the object (ms since the epoch); NaN when its answer does not say. */
  createdAtOf(object: T): number;
  /**
   * How far that time may be off because the platform's zone is not known yet (a bare date-time read as
   * UTC): zoneUncertaintyMs for such a value, 0 when the zone is written in the value, configured or learned.
   */
  createdAtUncertaintyMs?(object: T): number;
  /**
   * When the object's create was sent, as the object itself states it (a notebook's env, written by the create):
   * the evidence of a runner whose journal does not hold the create (docs/identity.md, "Stated send time").
   * Absent for a kind that cannot carry it.
   */
  statedSentAtOf?(object: T): string | undefined;
  /** The resource's place in its stack, where the kind states it on the object (statedStackPlaceOf). */
  stackPlace?: string | undefined;
  /** The place the object states (a notebook's env, written by the create), if it does. */
  statedStackPlaceOf?(object: T): string | undefined;
}

/**
 * Whether the object is of this resource's place in its stack, as far as it states one: another stack's
 * object, where two stacks share a pinned identity and so the mark, states another (ownership.ts
 * placeEnvName). `orUnstated`: an object that states none passes (one made by an earlier version, which a
 * journal entry or a recorded send time still ties to the create); evidence of its own, the stated send
 * time, needs the place stated.
 */
function inItsPlace<T>(target: Evidence<T>, object: T, orUnstated: boolean): boolean {
  if (target.stackPlace === undefined) return true;
  const stated = target.statedStackPlaceOf?.(object);
  return stated === undefined ? orUnstated : stated === target.stackPlace;
}

/** A create this resource sent: when, and the id its answer named if it came. */
export interface SentCreate {
  sentAt: string;
  id?: string;
}

/**
 * How far this machine's clock and the platform's may disagree when a
 * creation time is compared with when a create was sent. A copy made before
 * the send by more than this is not ours; nor is one dated after now by more
 * than this (a bare date-time read in the wrong zone puts an old copy there).
 */
export const clockSlackMs = 10 * 60_000;

/**
 * The most a bare date-time read as UTC can be off: platforms write local times from UTC-12 to UTC+14.
 * Until the zone is learned, a creation time is known only within this much either way (docs/identity.md).
 */
export const zoneUncertaintyMs = 14 * 3_600_000;

/** How far a creation time as the platform wrote it may be off: zoneUncertaintyMs for a bare value while the zone is unknown. */
export function uncertaintyOf(createdAt: unknown, zoneOffset: number | undefined): number {
  return typeof createdAt === "string" && zoneOffset === undefined && !hasZone(createdAt) ? zoneUncertaintyMs : 0;
}

/**
 * Whether `object` (which carries our mark) is the one `sent` made: the id its answer named, else made
 * between the send and now, as far as its creation time can be known (createdAtUncertaintyMs).
 */
export function madeBy<T>(target: Evidence<T>, object: T, sent: SentCreate): boolean {
  if (sent.id !== undefined) return target.idOf(object) === sent.id;
  if (!inItsPlace(target, object, true)) return false;
  const created = target.createdAtOf(object);
  const uncertainty = target.createdAtUncertaintyMs?.(object) ?? 0;
  return !Number.isNaN(created) && created + uncertainty >= Date.parse(sent.sentAt) - clockSlackMs && created - uncertainty <= Date.now() + clockSlackMs;
}

/**
 * How far the creation time of an object may lie from the send time it states when it is the create's own:
 * the sending runner's clock and the platform's agree within a minute (both keep time by NTP), and the
 * platform makes the object within a minute of the send. A copy of its settings states the original's
 * time and is made when a person makes it, later than that (docs/identity.md, "Stated send time").
 */
export const statedSlackMs = 2 * 60_000;

const hourMs = 3_600_000;

/**
 * Whether `object` (which carries our mark) was made by the create it says it was: it states when its create
 * was sent (an ISO 8601 time with its zone, as the create writes it), and the platform made it within
 * statedSlackMs of that time. While the platform's zone is neither configured nor learned
 * (createdAtUncertaintyMs: a bare value read as UTC), its creation time is off by the zone's offset: the gap
 * must then lie within statedSlackMs of a whole number of hours from UTC-12 to UTC+14 (the platform is
 * documented in China time, UTC+8). A copy made minutes after the original misses that unless it lands within
 * the slack of a whole hour after it; configuring `aicp:platformTimeZone` closes that too.
 */
export function madeAsStated<T>(target: Evidence<T>, object: T): boolean {
  if (!inItsPlace(target, object, false)) return false;
  const statedText = target.statedSentAtOf?.(object) ?? "";
  const stated = hasZone(statedText) ? Date.parse(statedText) : NaN;
  const created = target.createdAtOf(object);
  if (Number.isNaN(stated) || Number.isNaN(created)) return false;
  const gap = created - stated;
  if ((target.createdAtUncertaintyMs?.(object) ?? 0) === 0) return Math.abs(gap) <= statedSlackMs;
  const offset = Math.round(gap / hourMs) * hourMs;
  return offset >= -12 * hourMs && offset <= 14 * hourMs && Math.abs(gap - offset) <= statedSlackMs;
}

/**
 * Of the objects that answer to one create's evidence, the one it made: the one made closest to the send.
 * The platform makes the create's object as the request arrives; a copy of its mark is made by a person,
 * minutes away from it: after it, from the object they saw listed, or before the send, within the clock
 * slack, from an earlier object of the resource. The identity model found both taken in the create's place,
 * the first by "any", the second by "the earliest".
 */
export function madeClosestTo<T>(target: Evidence<T>, objects: T[], sent: SentCreate): T | undefined {
  const sentAt = Date.parse(sent.sentAt);
  const ranked = objects.map((object) => ({ object, id: target.idOf(object), distance: Math.abs(target.createdAtOf(object) - sentAt) }));
  // A missing creation time (NaN) ranks last; equal distances go to the smaller id, the same in every process.
  const rank = (x: (typeof ranked)[number]) => (Number.isNaN(x.distance) ? Infinity : x.distance);
  return ranked.sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0]?.object;
}

/**
 * Creates of one resource in the order they were made: by the platform's creation time (seconds, on one clock),
 * then by the send time each states (milliseconds, on the senders' clocks), then by id: the same order in every
 * process. An object whose times are missing comes last.
 */
export function inMadeOrder<T>(target: Evidence<T>, objects: T[]): T[] {
  const key = (o: T) => ({ made: target.createdAtOf(o), stated: Date.parse(target.statedSentAtOf?.(o) ?? ""), id: target.idOf(o) });
  const number = (x: number) => (Number.isNaN(x) ? Infinity : x);
  return objects
    .map((object) => ({ object, ...key(object) }))
    .sort((a, b) => number(a.made) - number(b.made) || number(a.stated) - number(b.stated) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ object }) => object);
}
