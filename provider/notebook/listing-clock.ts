/** The clock the shared listing (listing.ts) compares lookups and walks by. */

let clock = { at: 0, monotonic: performance.now(), wall: Date.now() };

/**
 * Now, on the clock lookups and walks are compared by: it moves on by
 * whichever of the monotonic clock and the wall clock moved further since it
 * was last read, and never back. So time the machine spent suspended counts
 * (performance.now() alone does not count it: a walk from before a sleep is
 * old after it), and a wall clock set back neither makes an old walk new nor
 * stops this clock.
 */
export function listingNow(): number {
  const monotonic = performance.now();
  const wall = Date.now();
  clock = { at: clock.at + Math.max(monotonic - clock.monotonic, wall - clock.wall, 0), monotonic, wall };
  return clock.at;
}
