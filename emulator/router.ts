/**
 * Maps a request to an operation of the route table. Every route is served
 * under both prefixes (platform notes §3): the spec's `/qai/aicp` and the
 * public client's `/aicp`.
 */
import { defaultRoutes, type OperationName } from "../provider/client/routes";
import { ApiError } from "./errors";

/** The prefixes the platform answers under; the longer one is tried first. */
export const PREFIXES = ["/qai/aicp", "/aicp"] as const;

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

const compiled: CompiledRoute[] = Object.entries(defaultRoutes).map(([operation, route]) => ({
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

/**
 * Finds the operation for `method` and the raw (still encoded) `path`; a
 * trailing slash is ignored. Throws 404 for no route and 400 for a path
 * parameter that could change the route once decoded.
 */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  const prefix = PREFIXES.find((p) => rawPath === p || rawPath.startsWith(p + "/"));
  if (prefix !== undefined) {
    const rest = rawPath.slice(prefix.length).split("/").filter((s, i, all) => s !== "" || (i > 0 && i < all.length - 1));
    for (const route of compiled) {
      if (route.method !== method || route.segments.length !== rest.length) continue;
      const params = matchSegments(route, rest);
      if (params) return { operation: route.operation, params };
    }
  }
  throw new ApiError(404, 404, `no route for ${method} ${rawPath}`);
}

function matchSegments(route: CompiledRoute, rest: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const seg = route.segments[i]!;
    const raw = rest[i]!;
    if ("literal" in seg) {
      if (seg.literal !== raw) return undefined;
      continue;
    }
    params[seg.param] = decodeSegment(seg.param, raw);
  }
  return params;
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
