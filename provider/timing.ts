/**
 * How long the provider polls, waits and remembers: the one place these times
 * are decided (docs/safety.md). Users get the defaults.
 * Tests in the provider's own process shorten them with `useTimings`; tests
 * that run the provider as another process (the real engine) shorten the poll
 * interval, the unconfirmed-create window and the create watch with
 * AICP_POLL_INTERVAL_MS, AICP_UNCONFIRMED_CREATE_WINDOW_MS and
 * AICP_CREATE_WATCH_MS, read here and nowhere else.
 */

export interface Timings {
  /** First interval between two polls of a wait; each poll waits half again as long, up to maxPollIntervalMs. */
  readonly pollIntervalMs: number;
  readonly maxPollIntervalMs: number;
  /**
   * How long after a create whose answer was lost the provider keeps
   * expecting the object to appear; past it, the user decides (create-once.ts).
   */
  readonly unconfirmedCreateWindowMs: number;
  /** How long a create whose answer was lost is watched for before it is recorded as unconfirmed. */
  readonly createWatchMs: number;
  /** How long a notebook may be missing from every lookup during a wait before it counts as gone. */
  readonly missingGraceMs: number;
  /** How long answers that cannot show a write are waited on before their status is taken as it is (notebook/wait.ts). */
  readonly undecidedSettleMs: number;
  /** How long a Failed answer right after a start from Failed may be the old failure (notebook/wait.ts). */
  readonly staleFailedMs: number;
}

/** What users get. */
export const defaultTimings: Timings = {
  pollIntervalMs: 1000,
  maxPollIntervalMs: 10_000,
  unconfirmedCreateWindowMs: 15 * 60_000,
  createWatchMs: 30_000,
  missingGraceMs: 30_000,
  undecidedSettleMs: 30_000,
  staleFailedMs: 10_000,
};

let overrides: Partial<Timings> = {};

/** A positive number from the environment, or undefined. */
function fromEnvironment(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The times in force: the defaults, then the environment's test settings, then `useTimings`. */
export function currentTimings(): Timings {
  const poll = overrides.pollIntervalMs ?? fromEnvironment("AICP_POLL_INTERVAL_MS") ?? defaultTimings.pollIntervalMs;
  return {
    ...defaultTimings,
    pollIntervalMs: poll,
    maxPollIntervalMs: Math.max(poll, defaultTimings.maxPollIntervalMs),
    unconfirmedCreateWindowMs: fromEnvironment("AICP_UNCONFIRMED_CREATE_WINDOW_MS") ?? defaultTimings.unconfirmedCreateWindowMs,
    createWatchMs: fromEnvironment("AICP_CREATE_WATCH_MS") ?? defaultTimings.createWatchMs,
    ...overrides,
  };
}

/** Sets times for this process (tests); returns what undoes it. */
export function useTimings(next: Partial<Timings>): () => void {
  const before = overrides;
  overrides = { ...overrides, ...next };
  return () => {
    overrides = before;
  };
}
