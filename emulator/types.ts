import type { MisbehaviourSpec } from "./misbehaviour";

/**
 * The emulator's public contract. The provider's tests depend on these shapes,
 * so they change only together with those tests.
 */
import type { EmulatorClock } from "./clock";

/**
 * The switches for what nobody knows about the real platform. Each default is
 * the reading closest to the public evidence; tests flip one switch at a time
 * (without a restart) to run a client against every plausible platform.
 */
export interface Dialect {
  /**
   * Path prefixes served. `aicp` serves `/aicp/...`, `qai` serves `/qai/aicp/...`.
   * Default `aicp`: the API introduction, the signature page's example and all
   * three public clients sign and send `/aicp/...`; only the unsigned curl samples
   * of the operation pages use `/qai/aicp` (platform-api B3). A prefix that is
   * not served answers like a gateway would: HTTP 404 with an HTML page, never
   * the envelope.
   */
  prefixes: "aicp" | "qai" | "both";
  /**
   * Operations the platform lacks; they answer like an unknown route (HTTP 404,
   * a body that is not the envelope). Default none. The resource-group get,
   * list and delete routes are assumed, not documented (platform-api B2).
   */
  absentOperations: string[];
  /**
   * What the MD5 line of the string to sign covers on a request with a body:
   * the MD5 of the empty string (`empty`) or of the exact body bytes (`body`).
   * Default `empty`: every public client puts MD5("") there and none shows a
   * working signed write (platform-api B4). A request signed under the other
   * convention is refused like any bad signature. Under `empty` the signature is
   * checked before the body is read; under `body` the body is read first (at
   * most the 1 MiB limit), once the query names a known key.
   */
  signatureBody: "empty" | "body";
  /**
   * Whether the `zone` query parameter is required. Default `required`: the
   * API introduction lists it among the common parameters and every public
   * client sends it, the MCP server marks it required (platform-api B4).
   * An unknown zone is refused in both modes.
   */
  zone: "required" | "optional";
  /**
   * `counts` on list operations: the number of matches (`total`) or of items in
   * this page (`page`). Default `page`: the spec shows `counts` differing from a
   * total, and the docs tell callers to page with `total_sum` (platform-api B5).
   */
  counts: "total" | "page";
  /**
   * List answers carry `total_sum`, the number of matches, beside `counts`.
   * Default true: the API introduction says to page with it (platform-api B5).
   */
  totalSum: boolean;
  /**
   * Largest page a list returns, whatever `limit` asks (capped silently); null
   * for no cap. Default 100: the API introduction's limit (platform-api B5).
   */
  maxPageSize: number | null;
  /**
   * Zone in which date-times without a zone suffix are written in responses and
   * read in requests (zoned request values are taken as given); auto-delete
   * expiry uses the same reading. Default `UTC`: the docs' samples show UTC
   * (with `Z`); the skills scripts build some times in China time, so UTC+8 is
   * the alternative (platform-api B5 "Times").
   */
  bareTimeZone: "UTC" | "+08:00";
  /**
   * Shape of `data` answered by the single-notebook writes (set_stop_time,
   * set_delete_time, change_image). `docs` follows each operation's docs sample:
   * an object for set_stop_time, an array for set_delete_time and change_image
   * (platform-api B5 "Types that differ"); `object` and `array` force one shape.
   */
  singleWriteData: "docs" | "object" | "array";
  /**
   * A notebook's `envs` is sent as a JSON string instead of an array. Default
   * false (the spec types it as an array); several docs pages type it as a
   * string (platform-api B5).
   */
  envsAsString: boolean;
  /**
   * What the start operation does with a Failed notebook: start it again
   * (`restart`, the default: the start docs name no status it refuses) or
   * refuse it (`refuse`: a 400 naming the status). No public source says
   * which the platform does (platform-api B1 lists start without rules).
   */
  startFailed: "restart" | "refuse";
}

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on; default "127.0.0.1". */
  host?: string;
  /** JSON persistence: loaded at start when present, rewritten atomically after every mutation. */
  stateFile?: string;
  /**
   * Accepted access keys; default one key AKIDEMULATOR / emulator-secret for
   * user usr-emulator. Each key acts only in its user's namespace (the user id
   * in lower case, platform-api B1) and on its own resource groups; it sees
   * the platform's groups and the templates whose `show_user` names its user.
   */
  credentials?: Array<{ accessKeyId: string; secretAccessKey: string; userId?: string }>;
  /** A notebook turns from Pending to Running this long after it was created or started; default 1000. */
  notebookReadyDelayMs?: number;
  /** Optional sink for one human-readable line per request. */
  log?: (line: string) => void;
  /** Dialect switches to change from the defaults (see Dialect). */
  dialect?: Partial<Dialect>;
  /** Known zones; default xb3, xb2, hb2 (the public clients) and hd1 (the docs' example), platform-api B4. */
  zones?: string[];
  /** The clock notebooks change by; default the machine's, which tests move forward with `Emulator.clock.advance`. */
  clock?: EmulatorClock;
}

/** How the signature of an accepted request was built (platform-api B4). */
export interface AuthVariant {
  /**
   * Encoding of the canonical query: RFC 3986, Python `quote` with `/` kept, or
   * the raw `key=value` join. Where forms coincide (a query with nothing they
   * encode differently), the first of rfc3986, python, raw is reported.
   */
  canonical: "rfc3986" | "python" | "raw";
  /** What the MD5 line covered: the empty string, or the request body. A request without a body reports `empty`. */
  bodyHash: "empty" | "body";
  /** How often the signature was percent-encoded in the query. */
  signatureEncoding: "once" | "twice";
}

/** One answered (or dropped) request. */
export interface RequestLogEntry {
  /** ISO 8601 UTC time the request arrived. */
  time: string;
  method: string;
  /** Request path without the query. */
  path: string;
  /** Operation name of the emulator's route table, "admin" for /__emulator/ routes, absent when no route matched. */
  operation?: string;
  /** HTTP status sent; 0 when the connection was dropped by a fault. */
  status: number;
  /** ret_code of the envelope, when one was sent. */
  retCode?: number;
  /** meta.X_REQUEST_ID of the envelope, when one was sent. */
  requestId?: string;
  /** How the signature was built, once it was accepted. */
  auth?: AuthVariant;
  /** The request's User-Agent and Channel headers, as sent (the operator's SDK sends `Channel: api`, platform-api B6). */
  userAgent?: string;
  channel?: string;
  /** The decoded query without `signature` and `access_key_id`; repeated names are arrays. */
  query?: Record<string, string | string[]>;
  /** Query parameter names the operation does not model and ignored (the platform ignores them too). */
  ignoredParams?: string[];
  /**
   * Bytes of the request body the emulator read and kept before answering. 0
   * for a request refused before its body was read (a bad or missing
   * signature, another account's namespace, a declared length over the limit);
   * what such a request sends afterwards is discarded as it arrives, never kept.
   */
  bodyBytes?: number;
}

/** A fault to inject into API requests (never into admin routes). */
export interface FaultSpec {
  kind: "latency" | "http" | "retCode" | "malformed" | "drop";
  /** Operation name of the route table; absent = every API operation. */
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

/** Notebooks to create at once, for paging tests (admin `POST /__emulator/notebooks`). */
export interface SeedNotebooks {
  /** Namespace that owns them (a user id in lower case). */
  namespace: string;
  /** How many; 1 to 10,000. */
  count: number;
  /** Names are `<namePrefix>-<n>` with n counting on from earlier seeds; default "seed". */
  namePrefix?: string;
  /** Owner user id; default the configured user of the namespace, else the namespace. */
  userId?: string;
  /** Running at once (default) or Stopped. */
  status?: "Running" | "Stopped";
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
  /** Turns on (or changes) how the platform misbehaves (see misbehaviour.ts); returns the switches in force. */
  misbehave(patch: MisbehaviourSpec): MisbehaviourSpec;
  /** Turns every misbehaviour off. */
  clearMisbehaviour(): void;
  /** The dialect in force. */
  dialect(): Dialect;
  /** Changes some dialect switches (merged into the current ones); throws on an invalid value. Returns the result. */
  setDialect(partial: Partial<Dialect>): Dialect;
  /** Creates notebooks at once; returns their uuids in creation order. */
  seedNotebooks(seed: SeedNotebooks): string[];
  /** Removes a notebook immediately, behind the provider's back; false when unknown. */
  deleteNotebook(uuid: string): boolean;
  /** Makes a notebook's container fail with `reason` (Failed until its next start), behind the provider's back; false when unknown. */
  failNotebook(uuid: string, reason: string): boolean;
  /** Every notebook, wire-shaped (snake_case) as the API returns it. */
  listNotebooks(): Array<Record<string, unknown>>;
  /** Every resource group (platform-owned ones included), wire-shaped. */
  listResourceGroups(): Array<Record<string, unknown>>;
  /** The clock notebooks change by: `clock.advance(ms)` brings their next change (Running, a stop or delete time) without waiting. */
  readonly clock: EmulatorClock;
  /** Stops listening and destroys open sockets. */
  close(): Promise<void>;
}
