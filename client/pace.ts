/** A ceiling on the request rate (aicp:maxRequestsPerSecond), kept by each client's transport. */
import { sleep } from "./sleep";

/**
 * Spaces requests evenly at a ceiling rate: each takes the next free slot,
 * 1/rate after the one before, so a burst of calls leaves at the rate rather
 * than all at once. Without a rate every request goes at once.
 */
export class Pace {
  private next = 0;
  constructor(private readonly perSecond: number | undefined) {}

  async turn(): Promise<void> {
    if (this.perSecond === undefined) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await sleep(at - now);
  }
}
