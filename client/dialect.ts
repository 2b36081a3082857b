/**
 * What the client learns about the platform by talking to it. Some facts are
 * unknown from the public material (platform-api B3 and B4): which path
 * prefix serves signed requests, and whether the MD5 line of the string to
 * sign covers a write's body. Each is a {@link Learned} value: a first guess
 * (the public evidence), one alternative, and the rule that an answer which
 * proves the guess wrong did nothing on the platform, so the same request may
 * be sent once more under the alternative.
 *
 * While a value is unconfirmed, requests that depend on it go one at a time:
 * only the first pays for a wrong guess, and every later request uses what it
 * learned. A value the user configured is pinned and never changes.
 */

/** What one answer says about the value it was sent with. */
export type Verdict = "confirms" | "refutes" | "silent";

/** A fact about the platform, learned once per process. */
export class Learned<T> {
  private value: T;
  private confirmed: boolean;
  /** Both values were refused once: the cause is elsewhere, so no more requests are spent on the alternative. */
  private exhausted = false;
  private probe: Promise<unknown> | undefined;
  /** Requests sent again under the alternative, for benchmarks and tests. */
  extraRequests = 0;

  /**
   * @param guess the value to try first
   * @param alternative the one other value, or undefined when `guess` is pinned by configuration
   */
  constructor(
    guess: T,
    private readonly alternative: T | undefined,
  ) {
    this.value = guess;
    this.confirmed = alternative === undefined;
  }

  /** The value in use. */
  get current(): T {
    return this.value;
  }

  /** True once an answer confirmed the value, or when it was configured. */
  get known(): boolean {
    return this.confirmed;
  }

  /**
   * Sends with the current value. While unconfirmed, one request at a time
   * probes: an answer that refutes the value is followed by exactly one
   * request with the alternative, and whichever is confirmed is kept.
   */
  async use<R>(send: (value: T) => Promise<R>, judge: (result: R) => Verdict): Promise<R> {
    while (!this.confirmed && this.probe) await this.probe.catch(() => undefined);
    if (this.confirmed || this.exhausted) return send(this.value);
    const probe = this.tryBoth(send, judge);
    this.probe = probe;
    try {
      return await probe;
    } finally {
      if (this.probe === probe) this.probe = undefined;
    }
  }

  private async tryBoth<R>(send: (value: T) => Promise<R>, judge: (result: R) => Verdict): Promise<R> {
    const first = await send(this.value);
    const verdict = judge(first);
    if (verdict === "confirms") this.confirmed = true;
    if (verdict !== "refutes") return first;
    this.extraRequests++;
    const second = await send(this.alternative!);
    const secondVerdict = judge(second);
    if (secondVerdict === "refutes") {
      // Refused both ways: report the first answer, and stop spending requests on this.
      this.exhausted = true;
      return first;
    }
    // The second request may have been executed (its answer may be lost): its outcome is the one to report.
    if (secondVerdict === "confirms") {
      this.value = this.alternative!;
      this.confirmed = true;
    }
    return second;
  }
}
