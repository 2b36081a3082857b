/**
 * Checking what goes to the platform and reading what comes back: request
 * validation, query building, and parsing `data` into the wire schemas, each
 * failure an AicpError naming the operation.
 */
import type { z } from "zod";
import { AicpError, validationError } from "./errors";
import type { OperationName } from "./routes";
import type { QueryValue } from "./signature";

export function validate<S extends z.ZodType>(operation: string, schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(`${operation} request`, result.error.issues);
  return result.data;
}

export function toQuery(input: unknown): Record<string, QueryValue | undefined> {
  const query: Record<string, QueryValue | undefined> = {};
  for (const [key, value] of Object.entries((input ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    query[key] = Array.isArray(value) ? value.map((v) => (typeof v === "object" ? JSON.stringify(v) : v)) : (value as QueryValue);
  }
  return query;
}

/**
 * A route that answered 404 without the platform confirming the object is
 * gone: one the provider assumed (no public source shows it), or one the user
 * configured in aicp:routes, said as such.
 */
export function routeError(operation: OperationName, source: string, notFound: AicpError, confirmation: unknown): AicpError {
  const also = confirmation instanceof AicpError ? ` Confirming through another route failed too: ${confirmation.message}` : " The object still exists.";
  const route = source === "configured" ? "is the one configured in aicp:routes" : "is not publicly documented and was assumed";
  return new AicpError(
    "AICP_ROUTE",
    `${notFound.message} The route for ${operation} ${route}.${also} ` +
      `If the platform uses another path, set it with \`pulumi config set --path 'aicp:routes.${operation}' "<METHOD> <path>"\`.`,
    {
      operation,
      method: notFound.method,
      path: notFound.path,
      status: notFound.status,
      retCode: notFound.retCode,
      requestId: notFound.requestId,
      cause: notFound,
    },
  );
}

/**
 * `data` of a write on one object: the docs show it as an object on some
 * operations and as a one-element array on others (platform-api B5).
 */
export function oneOrMany(data: unknown): unknown[] {
  return Array.isArray(data) ? data : data === null || data === undefined ? [] : [data];
}

export function malformed(operation: string, what: string, outcomeUnknown = false): AicpError {
  return new AicpError("AICP_MALFORMED", `${operation} answered with ${what}.`, { operation, outcomeUnknown });
}

export function parseList<T extends z.ZodType>(operation: string, schema: T, data: unknown, outcomeUnknown = false): z.output<T>[] {
  if (!Array.isArray(data)) throw malformed(operation, `data of type ${data === null ? "null" : typeof data} where a list was expected`, outcomeUnknown);
  return data.map((item, i) => {
    const result = schema.safeParse(item);
    if (!result.success) {
      throw malformed(operation, `an unreadable item ${i}: ${result.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`, outcomeUnknown);
    }
    return result.data;
  });
}

export function parseOne<T extends z.ZodType>(operation: string, schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw malformed(operation, `an unreadable object: ${result.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`);
  return result.data;
}
