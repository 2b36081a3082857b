/**
 * Waiting for a condition instead of a fixed time: a test that sleeps "long
 * enough" fails on a loaded machine and wastes time on an idle one.
 */

/** Polls `condition` every 20 ms until it holds; throws naming `what` after `timeoutMs` (default 20 s). */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
