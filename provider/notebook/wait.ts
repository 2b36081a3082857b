/**
 * Waiting for a notebook to reach a state, polling the list operation with
 * backoff, bounded by a timeout. Failed is terminal and reported with the
 * platform's reason.
 */
import { AicpError } from "../../client/errors";
import type { Notebook } from "../../client/wire";
import { listingNow, type NotebookListing } from "./listing";
import { cancelled, cancelledError } from "../cancellation";
import { PollSchedule, type PollIntervals } from "../poll";
import { warn } from "../engine-log";
import { isUnknownStatus, stoppedOnScheduleSince } from "./state";
import { describeSeen } from "./evidence";
import { currentTimings } from "../timing";

/** Which notebook: its namespace and uuid, and its name for direct lookups. */
export interface NotebookRef {
  readonly namespace: string;
  readonly uuid: string;
  readonly name?: string;
}

export interface WaitOptions extends Partial<PollIntervals> {
  timeoutMs: number;
  /**
   * How long a notebook may be missing from every lookup before it counts as
   * gone: a platform may be slow to list what it just created or restarted.
   */
  graceMs?: number;
  /**
   * The notebook was just started (or restarted) from Failed: a Failed answer
   * counts only once another status has been seen since, or after
   * staleFailedMs, since a lagging list may still show the failure before the
   * start.
   */
  restartedFromFailed?: boolean;
  /**
   * Whether an answer shows the write just made (notebook/evidence.ts). One
   * that does not (false) is the notebook as it was before the write, from a
   * list that lags: neither its Running nor its Failed ends the wait. One
   * whose fields cannot tell (undefined: no update time, nothing else
   * changed) ends it only on a Failed past staleFailedMs.
   */
  showsWrite?: (notebook: Notebook) => boolean | undefined;
  /**
   * The zone of bare date-times, when a stop at the notebook's own stop time
   * ends a wait for Running: the program asked for that stop. Only a stop
   * time that comes during the wait counts, so an old one on a list that lags
   * behind a start never does.
   */
  scheduleZone?: number;
}

/** Polls until the notebook's status is `wanted`; returns it. */
export async function waitForStatus(listing: NotebookListing, ref: NotebookRef, wanted: "Running" | "Stopped", options: WaitOptions): Promise<Notebook> {
  const { namespace, uuid } = ref;
  const schedule = new PollSchedule(options.timeoutMs, options);
  const { missingGraceMs, undecidedSettleMs, staleFailedMs } = currentTimings();
  const graceMs = options.graceMs ?? missingGraceMs;
  let last: Notebook | undefined;
  let missingSince: number | undefined;
  const started = Date.now();
  const listedSince = listingNow();
  let failureMayBeOld = options.restartedFromFailed === true;
  let warnedUndecided = false;
  const looks = new Looks(listing, schedule, ref, listedSince);
  for (;;) {
    last = await looks.look();
    if (cancelled()) {
      throw cancelledError(
        `waiting for notebook ${uuid} to be ${wanted} (it is ${last?.status ?? "not listed"}); it is recorded, and the next \`pulumi up\` waits again`,
      );
    }
    if (!last) {
      missingSince ??= Date.now();
      if (Date.now() - missingSince >= graceMs || looks.wasLast) {
        throw new AicpError(
          "AICP_WAIT",
          `notebook ${uuid} disappeared from namespace ${namespace} while waiting for it to be ${wanted} (missing from every lookup for ` +
            `${Math.round((Date.now() - missingSince) / 1000)} s).`,
        );
      }
      await looks.next();
      continue;
    }
    missingSince = undefined;
    const shown = options.showsWrite ? options.showsWrite(last) : true;
    // Answers that cannot tell (no update time, nothing visible changed) are taken as they are after a bounded
    // settle: evidence that cannot exist must not make every such update run to its timeout.
    const settled = shown === undefined && Date.now() >= started + Math.min(undecidedSettleMs, options.timeoutMs / 2);
    if (settled && !warnedUndecided) {
      warnedUndecided = true;
      await warn(
        `notebook ${uuid}: the platform's answers cannot show whether the change was applied (they carry no updated_at, and nothing else visible changed); ` +
          `after ${Math.round(Math.min(undecidedSettleMs, options.timeoutMs / 2) / 1000)} s its status (${last.status ?? "none"}) is taken as it is. Check ` +
          `the notebook if the change matters.`,
      );
    }
    const current = shown === true || settled;
    if (current && last.status === wanted) return last;
    if (current && wanted === "Running" && options.scheduleZone !== undefined && stoppedOnScheduleSince(last, options.scheduleZone, started)) return last;
    if (last.status !== "Failed") failureMayBeOld = false;
    // Failed ends a wait for Running; a Failed notebook being stopped is on its way to Stopped.
    if ((current || shown === undefined) && wanted === "Running" && last.status === "Failed" && !(failureMayBeOld && Date.now() - started < staleFailedMs))
      throw new NotebookFailed(last);
    if (looks.wasLast) throw stillWaiting(uuid, last, wanted, options.timeoutMs, current);
    await looks.next();
  }
}

/**
 * The looks of one wait. A poll may read a walk a little older
 * (NotebookListing.pollSince); the last look before the deadline, on which
 * the wait's verdict rests, reads one asked then, and a look the deadline
 * overtakes (a slow walk, a walk in flight, a quota's wait) is followed by
 * that last look at once.
 */
class Looks {
  private last = false;

  constructor(
    private readonly listing: NotebookListing,
    private readonly schedule: PollSchedule,
    private readonly ref: NotebookRef,
    private readonly waitStartedAt: number,
  ) {}

  /** The notebook as this look finds it; `renamed: false` as NotebookListing.locate takes it. */
  look(options?: { renamed?: boolean }): Promise<Notebook | undefined> {
    this.last = this.schedule.lastLook;
    const since = this.last ? listingNow() : this.listing.pollSince(this.waitStartedAt, this.ref.namespace, this.ref.name);
    return this.listing.locate(this.ref.namespace, this.ref.uuid, this.ref.name, since, options);
  }

  /** Whether the look just made was the last before the deadline. */
  get wasLast(): boolean {
    return this.last;
  }

  /** Pauses until the next look, unless the deadline came during this one: then the last look follows at once. */
  async next(): Promise<void> {
    if (!this.schedule.lastLook) await this.schedule.next();
  }
}

/** A wait for Running that ended with the notebook Failed; `notebook` is how the platform listed it. */
export class NotebookFailed extends AicpError {
  constructor(readonly notebook: Notebook) {
    super(
      "AICP_WAIT",
      `notebook ${notebook.uuid} failed instead of becoming Running: ${notebook.reason ?? "the platform gave no reason"}. ` +
        "Fix what the reason names (often the image or its registry credentials) and run `pulumi up` again; it starts the notebook again.",
    );
  }
}

/** The error of a wait that ran out: what the notebook is, and what to do. */
function stillWaiting(uuid: string, last: Notebook, wanted: string, timeoutMs: number, showsWrite: boolean): AicpError {
  const seconds = Math.round(timeoutMs / 1000);
  if (!showsWrite) {
    return new AicpError(
      "AICP_WAIT",
      `notebook ${uuid} is still listed as before the change (${describeSeen(last)}) after ${seconds} s, waiting for ${wanted} and for an answer that ` +
        `shows the change. ` +
        "The state records the change as made: check the notebook, run `pulumi refresh` to read what the platform shows, and `pulumi up` applies what is " +
        "missing " +
        "(raise readyTimeoutSeconds, or the customTimeouts a program gives the plugin's resources, to wait longer).",
    );
  }
  const status = last.status ?? "without a status";
  const reason = last.reason ? ` (reason: ${last.reason})` : "";
  const unknown = isUnknownStatus(last.status)
    ? `; "${status}" is not a status the provider knows (Pending, Running, Stopped, Failed), so it waited for it to change as it would for Pending`
    : "";
  return new AicpError(
    "AICP_WAIT",
    `notebook ${uuid} is still ${JSON.stringify(status)}${reason} after ${seconds} s, waiting for ${wanted}${unknown}. ` +
      "It is recorded; `pulumi up` waits again (raise readyTimeoutSeconds, or the customTimeouts a program gives the plugin's resources, to wait longer at " +
      "once), or set waitForReady to false.",
  );
}

/**
 * Polls until neither the list nor a lookup by name shows the notebook. Its
 * stop and auto-delete time were accepted: once that time takes effect the
 * platform removes it under any name, so no walk of its own looks for it
 * renamed (NotebookListing.locate renamed: false).
 */
export async function waitForRemoval(listing: NotebookListing, ref: NotebookRef, options: WaitOptions): Promise<void> {
  const { uuid } = ref;
  const schedule = new PollSchedule(options.timeoutMs, options);
  const looks = new Looks(listing, schedule, ref, listingNow());
  while (await looks.look({ renamed: false })) {
    if (cancelled()) throw cancelledError(`waiting for notebook ${uuid} to be removed (it is stopped and its auto-delete time is set to now)`);
    if (looks.wasLast) {
      throw new AicpError(
        "AICP_WAIT",
        `notebook ${uuid} is still listed ${Math.round(options.timeoutMs / 1000)} s after its auto-delete time was set to now; ` +
          "it is stopped and will be removed by the platform. Run `pulumi refresh` later to confirm.",
      );
    }
    await looks.next();
  }
}
