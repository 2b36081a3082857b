/**
 * One error type for everything that can go wrong talking to the platform. Each
 * carries a stable `code`, the operation and route, the HTTP status, the
 * platform's `ret_code` and message, and the request id to quote to support.
 * Messages never contain credentials or the signed query string.
 */

/** Stable codes of {@link AicpError}: match on these, not on messages. */
export type AicpErrorCode =
  | "AICP_HTTP" // non-2xx answer
  | "AICP_RET_CODE" // 2xx answer whose envelope has ret_code != 0
  | "AICP_MALFORMED" // body is not the platform's envelope
  | "AICP_TIMEOUT" // no answer within the request timeout
  | "AICP_NETWORK" // connection refused, reset or dropped
  | "AICP_ROUTE" // an assumed route answered 404/405: the platform may use another path
  | "AICP_VALIDATION" // input breaks a rule of the spec; nothing was sent
  | "AICP_CONFLICT" // the name is held by an object this resource did not create; nothing was sent
  | "AICP_NOT_FOUND" // the object an id names (Notebook.get, adoptId) does not exist; nothing was changed
  | "AICP_CONFIG" // provider configuration missing or invalid; nothing was sent
  | "AICP_WAIT"; // a resource did not reach the wanted state

/** The facts an {@link AicpError} carries besides its message. */
export interface AicpErrorDetails {
  operation?: string;
  method?: string;
  path?: string;
  status?: number;
  retCode?: number;
  platformMessage?: string;
  requestId?: string;
  /** For AICP_VALIDATION: each broken rule with its property path. */
  issues?: ReadonlyArray<{ path: string; message: string }>;
  /** True when a write may have reached the platform although no answer came back. */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

/** Values seen in this process that must never be printed: the secret key, registry passwords, env values. */
const secrets = new Set<string>();

/**
 * Remembers a value that must never appear in an error message. Platforms
 * echo requests in their errors (a body with a password, a signed URL); every
 * AicpError is redacted when it is built, so no path can forget it.
 */
export function rememberSecret(value: unknown): void {
  // Shorter values would blank ordinary words of messages and protect nothing.
  if (typeof value === "string" && value.length >= 4) secrets.add(value);
}

/**
 * The text with signed-URL parameters (the signature never expires, platform-api
 * B4) and every remembered secret, also in its JSON-escaped form, cut out.
 */
export function redact(text: string): string {
  let out = text.replace(/\b(signature|access_key_id)=[^&\s"'<>]*/gi, "$1=<redacted>");
  for (const secret of secrets) {
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])) out = out.split(form).join("<secret>");
  }
  return out;
}

/**
 * The error of every failed operation. `message` says what happened and what
 * to do; the fields carry the facts (operation, route, HTTP status, ret_code,
 * platform message, request id) for programs that handle errors.
 */
export class AicpError extends Error {
  readonly code: AicpErrorCode;
  readonly operation?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly retCode?: number;
  readonly platformMessage?: string;
  readonly requestId?: string;
  readonly issues?: ReadonlyArray<{ path: string; message: string }>;
  readonly outcomeUnknown: boolean;

  constructor(code: AicpErrorCode, message: string, details: AicpErrorDetails = {}) {
    super(redact(message), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AicpError";
    this.code = code;
    this.operation = details.operation;
    this.method = details.method;
    // A path may quote an argument the program marked secret (a job's name): redacted as the message is.
    this.path = details.path === undefined ? undefined : redact(details.path);
    this.status = details.status;
    this.retCode = details.retCode;
    this.platformMessage = details.platformMessage === undefined ? undefined : redact(details.platformMessage);
    this.requestId = details.requestId;
    this.issues = details.issues;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }

  /** True for an answer meaning "no such object" (HTTP 404 on a documented route). */
  get isNotFound(): boolean {
    return this.code === "AICP_HTTP" && this.status === 404;
  }
}

/**
 * Rewrites the error's message as the one line a user reads: its code first,
 * then the message, a validation error's list of broken rules joined with
 * "; " ("head:\n  - a: x\n  - b: y" reads "CODE: head: a: x; b: y").
 * The stack is dropped: it names our files, not anything the user can change.
 */
export function asOneLine(error: AicpError): AicpError {
  const [head = "", ...rules] = error.message.split(/\n\s*-\s*/);
  const line = (rules.length > 0 ? `${head.replace(/:\s*$/, "")}: ${rules.join("; ")}` : head).replace(/\s*\n\s*/g, " ");
  error.message = line.startsWith(`${error.code}:`) ? line : `${error.code}: ${line}`;
  // Empty, not the message again: the dynamic provider prints a failed read as `${error}: ${error.stack}`.
  error.stack = "";
  return error;
}

/** What a request was, for error messages. */
export interface RequestContext {
  operation: string;
  method: string;
  path: string;
}

/** "operation (METHOD /path)": how every message names the request. */
export function describeRequest(ctx: RequestContext): string {
  return `${ctx.operation} (${ctx.method} ${ctx.path})`;
}

/** Formats the platform-side facts of a failure: status, ret_code, message, request id. */
export function describeAnswer(parts: { status?: number; retCode?: number; platformMessage?: string; requestId?: string }): string {
  const facts: string[] = [];
  if (parts.status !== undefined) facts.push(`HTTP ${parts.status}`);
  if (parts.retCode !== undefined) facts.push(`ret_code ${parts.retCode}`);
  if (parts.platformMessage) facts.push(`message "${parts.platformMessage}"`);
  facts.push(`request id ${parts.requestId ?? "(none returned)"}`);
  return facts.join(", ");
}

/** Turns zod issues into a validation error, with paths rendered by `renderPath`. */
export function validationError(
  what: string,
  // Structural (zod's issues fit): the SDK's published declarations reach this file and must not name zod.
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>,
  renderPath: (path: ReadonlyArray<PropertyKey>) => string = defaultPath,
): AicpError {
  const rendered = issues.map((issue) => ({ path: renderPath(issue.path) || "(input)", message: issue.message }));
  const lines = rendered.map((i) => `  - ${i.path}: ${i.message}`).join("\n");
  return new AicpError("AICP_VALIDATION", `invalid ${what}; nothing was sent to the platform:\n${lines}`, { issues: rendered });
}

/** Renders ["replica_specs", "custom_gpu_list", 1] as "replica_specs.custom_gpu_list[1]". */
export function defaultPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}
