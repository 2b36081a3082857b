/**
 * Ctrl-C. On the first one the engine calls the provider's Cancel method and
 * then waits for the operations in flight; the nodejs dynamic provider answers
 * Cancel without telling anyone, so a wait for Running would go on for up to
 * readyTimeoutSeconds. Its gRPC server is an HTTP/2 server in this process, so
 * the provider listens for that method's requests on it, and every wait then
 * ends at once, returning what exists (a notebook created but not ready is
 * reported with its id, and the engine records it). SIGINT itself is left
 * alone: the engine sends it to close a plugin.
 */
import { AicpError } from "../client/errors";

const cancelMethod = "/pulumirpc.ResourceProvider/Cancel";
const controller = new AbortController();
let listening = false;

/** Starts listening for the engine's Cancel call (once per process; in the provider process only). */
export function listenForCancel(): void {
  if (listening) return;
  listening = true;
  // Node's list of what keeps the process alive: the gRPC server's listening socket is one of them.
  const listHandles: unknown = Reflect.get(process, "_getActiveHandles");
  const handles: unknown[] = typeof listHandles === "function" ? (listHandles.call(process) as unknown[]) : [];
  for (const handle of handles) {
    const server = handle as { constructor?: { name?: string }; on?: (event: string, listener: (...args: unknown[]) => void) => void };
    if (server?.constructor?.name !== "Http2Server" || typeof server.on !== "function") continue;
    server.on("stream", (_stream: unknown, headers: unknown) => {
      if ((headers as Record<string, unknown> | undefined)?.[":path"] === cancelMethod) controller.abort();
    });
  }
}

/** Ends every wait at once: the provider plugin's Cancel (plugin/server.ts), which is its own gRPC method there. */
export function cancelNow(): void {
  controller.abort();
}

/** True once the engine asked to cancel (the user pressed Ctrl-C). */
export function cancelled(): boolean {
  return controller.signal.aborted;
}

/** The signal Ctrl-C aborts: every pause of a wait ends at once (poll.ts). */
export function cancellation(): AbortSignal {
  return controller.signal;
}

/** The error that ends a wait on Ctrl-C; `what` says what was awaited and what exists. */
export function cancelledError(what: string): AicpError {
  return new AicpError("AICP_WAIT", `cancelled (Ctrl-C): stopped ${what}.`);
}
