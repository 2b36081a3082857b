/**
 * Maps a request to an operation of the emulator's route table, under the
 * prefixes the dialect serves (platform-api B3). What does not match answers
 * without the envelope: the gateway's HTML 404 for a prefix that is not served,
 * the framework's JSON 404 for an unknown (or absent) route under a served one.
 */
import { ApiError, gatewayNotFound, routeNotFound } from "./errors";
import { ROUTES, type OperationName } from "./routes";
import type { Dialect } from "./types";

const PREFIX_PATHS = { qai: "/qai/aicp", aicp: "/aicp" } as const;

/** A matched route. */
export interface RouteMatch {
  operation: OperationName;
  /** Decoded path parameters. */
  params: Record<string, string>;
}

interface CompiledRoute {
  operation: OperationName;
  method: string;
  segments: Array<{ literal: string } | { param: string }>;
}

const compiled: CompiledRoute[] = Object.entries(ROUTES).map(([operation, route]) => ({
  operation: operation as OperationName,
  method: route.method,
  segments: route.path
    .split("/")
    .filter(Boolean)
    .map((s) => {
      const m = /^\{(\w+)\}$/.exec(s);
      return m ? { param: m[1]! } : { literal: s };
    }),
}));

/** The prefix a raw path starts with, if any; the longer `/qai/aicp` is tried first. */
function prefixOf(rawPath: string): keyof typeof PREFIX_PATHS | undefined {
  for (const key of ["qai", "aicp"] as const) {
    const p = PREFIX_PATHS[key];
    if (rawPath === p || rawPath.startsWith(p + "/")) return key;
  }
  return undefined;
}

/**
 * Finds the operation for `method` and the raw (still encoded) `path`; a
 * trailing slash is ignored. Throws a PlainAnswer for no route and a 400
 * ApiError for a path parameter that could change the route once decoded.
 */
export function matchRoute(method: string, rawPath: string, dialect: Dialect): RouteMatch {
  const prefix = prefixOf(rawPath);
  if (prefix === undefined || (dialect.prefixes !== "both" && dialect.prefixes !== prefix)) throw gatewayNotFound();
  const rest = rawPath
    .slice(PREFIX_PATHS[prefix].length)
    .split("/")
    .filter((s, i, all) => s !== "" || (i > 0 && i < all.length - 1));
  for (const route of compiled) {
    if (route.method !== method || route.segments.length !== rest.length) continue;
    const params = matchSegments(route, rest);
    if (!params) continue;
    if (dialect.absentOperations.includes(route.operation)) break;
    return { operation: route.operation, params };
  }
  throw routeNotFound();
}

function matchSegments(route: CompiledRoute, rest: string[]): Record<string, string> | undefined {
  const raw: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const seg = route.segments[i]!;
    if ("literal" in seg) {
      if (seg.literal !== rest[i]) return undefined;
    } else {
      raw[seg.param] = rest[i]!;
    }
  }
  // Decoded only once the literals matched, so a bad segment of another route cannot fail this one.
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeSegment(name, value)]));
}

function decodeSegment(name: string, raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, 400, `invalid request path: ${name}: malformed percent-encoding '${raw}'`);
  }
  if (value === "" || value === "." || value === ".." || value.includes("/")) {
    throw new ApiError(400, 400, `invalid request path: ${name}: '${value}' is not a single path segment`);
  }
  return value;
}
