/** The emulator's error type, the platform's response envelope, and the answers that are not the envelope (gateway and framework 404s). */
import type { z } from "zod";

/** An error answered as an envelope with a non-zero ret_code. */
export class ApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** Envelope ret_code; defaults to the HTTP status. */
    readonly retCode: number,
    message: string,
    /** Extra response headers (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 with one "path: message" part per zod issue, so the caller sees every mistake at once. */
export function validationError(where: string, error: z.ZodError): ApiError {
  const parts = error.issues.map((issue) =>
    // An unknown field is reported at its own path, not at the object holding it.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((k) => `${formatPath([...issue.path, k])}: unknown field`).join("; ")
      : `${formatPath(issue.path)}: ${issue.message}`,
  );
  return new ApiError(400, 400, `invalid request ${where}: ${parts.join("; ")}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Validates `value`, throwing a 400 ApiError that lists every issue. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(where, result.error);
  return result.data;
}

/** 404 for a missing object. */
export function notFound(what: string): ApiError {
  return new ApiError(404, 404, `${what} not found`);
}

/** The envelope of every answer (platform-api A1, platform-api B5). */
export interface WireEnvelope {
  ret_code: number;
  message: string;
  data: unknown;
  counts: number;
  meta: { X_REQUEST_ID: string; X_REQUEST_USER: string };
}

/** Builds an envelope. */
export function envelope(retCode: number, message: string, data: unknown, counts: number, reqId: string, user: string): WireEnvelope {
  return { ret_code: retCode, message, data, counts, meta: { X_REQUEST_ID: reqId, X_REQUEST_USER: user } };
}

/** An answer that is not the envelope: what a gateway or a web framework sends for a path it has no route for. */
export class PlainAnswer extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
  }
}

/**
 * A prefix the platform does not serve: the gateway in front of it answers an
 * nginx-style HTML page, never the envelope (platform-api B3), so a client
 * can tell that nothing behind it ran.
 */
export function gatewayNotFound(): PlainAnswer {
  return new PlainAnswer(
    404,
    "text/html",
    "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not " +
      "Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
  );
}

/** A route the application lacks under a served prefix: the web framework's own 404, not the envelope. */
export function routeNotFound(): PlainAnswer {
  return new PlainAnswer(404, "application/json", JSON.stringify({ detail: "Not Found" }));
}
