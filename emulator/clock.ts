/**
 * The emulator's time. Everything a notebook does on its own (Running after
 * the ready delay, stopping at its stop time, vanishing at its auto-delete
 * time, lists that lag) is computed from this clock, so a test moves it
 * forward instead of sleeping: a one-hour ready delay and `advance(hour)` is
 * Pending, then Running, whatever the machine's load.
 */
export class EmulatorClock {
  private offsetMs = 0;

  /** @param source the time it starts from and runs with; the machine's clock unless a test injects one (a clock that stands still, say) */
  constructor(private readonly source: () => number = Date.now) {}

  /** Milliseconds since the epoch, as the emulator sees it. */
  now(): number {
    return this.source() + this.offsetMs;
  }

  /** Moves the clock `ms` forward (never back: a platform's time does not run backwards); returns the new now. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`the clock moves forward only: advance takes milliseconds >= 0, not ${ms}`);
    this.offsetMs += ms;
    return this.now();
  }
}
