/** Ceilings each client's transport keeps: on the request rate (aicp:maxRequestsPerSecond) and on requests at once (aicp:maxConnections). */
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

/** At most `count` requests at once; the others wait their turn, first come first served. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(count: number) {
    this.free = count;
  }

  /** Waits for a slot; the function it returns gives the slot back (once). */
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
