/**
 * The emulator's public contract. The provider's tests depend on these shapes,
 * so they change only together with those tests.
 */

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on; default "127.0.0.1". */
  host?: string;
  /** JSON persistence: loaded at start when present, rewritten atomically after every mutation. */
  stateFile?: string;
  /** Accepted access keys; default one key AKIDEMULATOR / emulator-secret for user usr-emulator. */
  credentials?: Array<{ accessKeyId: string; secretAccessKey: string; userId?: string }>;
  /** A notebook turns from Pending to Running this long after it was created or started; default 1000. */
  notebookReadyDelayMs?: number;
  /** Optional sink for one human-readable line per request. */
  log?: (line: string) => void;
}

/** One answered (or dropped) request. */
export interface RequestLogEntry {
  /** ISO 8601 UTC time the request arrived. */
  time: string;
  method: string;
  /** Request path without the query. */
  path: string;
  /** Key of defaultRoutes, "admin" for /__emulator/ routes, absent when no route matched. */
  operation?: string;
  /** HTTP status sent; 0 when the connection was dropped by a fault. */
  status: number;
  /** ret_code of the envelope, when one was sent. */
  retCode?: number;
  /** meta.X_REQUEST_ID of the envelope, when one was sent. */
  requestId?: string;
}

/** A fault to inject into API requests (never into admin routes). */
export interface FaultSpec {
  kind: "latency" | "http" | "retCode" | "malformed" | "drop";
  /** Key of defaultRoutes; absent = every API operation. */
  operation?: string;
  /** Apply to the next N matching requests; absent = unlimited while installed. */
  count?: number;
  /** Chance (0..1) that a matching request is affected; default 1. */
  probability?: number;
  /** kind latency: delay added before the request is handled normally. */
  latencyMs?: number;
  /** kind http: the HTTP status (error envelope with ret_code = status). */
  status?: number;
  /** kind http: value of the Retry-After header. */
  retryAfterSeconds?: number;
  /** kind retCode: HTTP 200 with this ret_code. */
  retCode?: number;
  /** kind retCode (and http): the envelope message. */
  message?: string;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL, e.g. "http://127.0.0.1:41234" (no path prefix). */
  readonly url: string;
  readonly port: number;
  /** API requests and admin ones (operation "admin"), oldest first. */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  addFault(fault: FaultSpec): void;
  clearFaults(): void;
  /** Removes a notebook immediately, behind the provider's back; false when unknown. */
  deleteNotebook(uuid: string): boolean;
  /** Every notebook, wire-shaped (snake_case) as the API returns it. */
  listNotebooks(): Array<Record<string, unknown>>;
  /** Every resource group (platform-owned ones included), wire-shaped. */
  listResourceGroups(): Array<Record<string, unknown>>;
  /** Stops listening and destroys open sockets. */
  close(): Promise<void>;
}
