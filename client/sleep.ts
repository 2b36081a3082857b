/**
 * The one timer every wait of the package uses: the client's retries
 * (transport.ts) and the provider's polls (provider/poll.ts).
 */

/** Resolves after `ms`, or at once when `signal` aborts (the caller then checks why it woke). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
