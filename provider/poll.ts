/**
 * Every wait of the provider polls on one schedule: the first interval is the
 * poll interval (timing.ts), each next one half again as long up to the
 * maximum, and the last look comes before the deadline, never after it.
 * Ctrl-C cuts a pause short (cancellation.ts); the caller then checks
 * cancelled() and ends its wait with what exists.
 */
import { sleep } from "../client/sleep";
import { cancellation } from "./cancellation";
import { currentTimings } from "./timing";

/** The intervals of a wait. */
export interface PollIntervals {
  /** First interval; grows by half each poll up to maxIntervalMs. */
  readonly initialIntervalMs: number;
  readonly maxIntervalMs: number;
}

/** The intervals in force (timing.ts). */
export function pollIntervals(): PollIntervals {
  const { pollIntervalMs, maxPollIntervalMs } = currentTimings();
  return { initialIntervalMs: pollIntervalMs, maxIntervalMs: maxPollIntervalMs };
}

/** One wait's schedule, from now until `timeoutMs` from now. */
export class PollSchedule {
  readonly deadline: number;
  private interval: number;
  private readonly maxIntervalMs: number;

  constructor(timeoutMs: number, intervals: Partial<PollIntervals> = {}) {
    const defaults = pollIntervals();
    const initialIntervalMs = intervals.initialIntervalMs ?? defaults.initialIntervalMs;
    const maxIntervalMs = intervals.maxIntervalMs ?? defaults.maxIntervalMs;
    this.deadline = Date.now() + timeoutMs;
    this.interval = initialIntervalMs;
    this.maxIntervalMs = Math.max(initialIntervalMs, maxIntervalMs);
  }

  /** Whether this is the last look: one more pause would end after the deadline. */
  get lastLook(): boolean {
    return Date.now() + this.interval > this.deadline;
  }

  /** Pauses for the current interval (less on Ctrl-C), and lengthens the next one. */
  async next(): Promise<void> {
    await pause(this.interval);
    this.interval = Math.min(this.maxIntervalMs, Math.round(this.interval * 1.5));
  }
}

/** Waits `ms`, or less once cancelled (callers then check cancelled()). */
export function pause(ms: number): Promise<void> {
  return sleep(ms, cancellation());
}
