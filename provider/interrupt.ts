/**
 * Ctrl-C in a terminal reaches the whole process group, the provider process
 * included, and the engine's Cancel call is a no-op in the nodejs dynamic
 * provider. Left to Node's default, the provider dies mid-create and the
 * notebook it made is recorded nowhere; ignored, a wait for Running runs on for
 * up to readyTimeoutSeconds. So the provider process takes the first SIGINT as
 * "stop waiting": every wait ends at once with what exists (a notebook made is
 * returned with its id, so the engine records it), and a second SIGINT exits.
 */
import { AicpError } from "./client/errors";

const controller = new AbortController();
let listening = false;

/** Installs the SIGINT handler in this process (the provider's; called from configure). */
export function listenForInterrupt(): void {
  if (listening) return;
  listening = true;
  process.on("SIGINT", () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  });
}

/** True once the user pressed Ctrl-C. */
export function interrupted(): boolean {
  return controller.signal.aborted;
}

/** Waits ms, or less: resolves early once interrupted (callers then check interrupted()). */
export function pause(ms: number): Promise<void> {
  if (controller.signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      controller.signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    controller.signal.addEventListener("abort", done, { once: true });
  });
}

/** The error that ends a wait on Ctrl-C; `what` says what was awaited and what exists. */
export function interruptedError(what: string): AicpError {
  return new AicpError("AICP_WAIT", `interrupted (Ctrl-C): stopped ${what}.`);
}
