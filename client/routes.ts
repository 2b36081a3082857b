/**
 * The route table: every operation the provider uses, in one place. Paths are
 * relative to the path prefix (`/qai/aicp` by default, platform-api B3).
 * Routes the platform does not document are marked `assumed`; a user can
 * override any route through the `aicp:routes` configuration.
 */
import { AicpError } from "./errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Route {
  readonly method: HttpMethod;
  /** Path template; `{name}` is replaced by one encoded path segment. */
  readonly path: string;
  /** Where the route is documented, or `assumed` when no public source shows it. */
  readonly source: string;
}

export const defaultRoutes = {
  listTrainingPods: { method: "GET", path: "/trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods", source: "platform-api A4.1" },
  createNotebook: { method: "POST", path: "/notebooks/namespaces/{namespace}/create", source: "platform-api A4.2" },
  createResourceGroup: { method: "POST", path: "/resource/resource_group", source: "platform-api A4.3" },
  getNotebookDiskMetrics: { method: "GET", path: "/monitoring/namespaces/{namespace}/notebook/disk", source: "platform-api A4.4" },
  listTemplates: { method: "GET", path: "/resource/template", source: "platform-api A4.5" },
  listNotebooks: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks", source: "platform-api B1" },
  getNotebookServers: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks/{uuid}/servers", source: "platform-api B1" },
  stopNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/stop", source: "platform-api B1" },
  startNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/start", source: "platform-api B1" },
  setStopTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_stop_time", source: "platform-api B1" },
  setDeleteTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_delete_time", source: "platform-api B1" },
  changeImage: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/change_image", source: "platform-api B1" },
  createTemplate: { method: "POST", path: "/resource/template", source: "platform-api B1" },
  updateResourceGroup: { method: "PUT", path: "/resource/resource_group", source: "platform-api B1" },
  listTrainingJobs: { method: "GET", path: "/trains/namespaces/{namespace}/trains", source: "platform-api B1" },
  createTrainingJob: { method: "POST", path: "/trains/namespaces/{namespace}/create", source: "platform-api B1" },
  getResourceGroup: { method: "GET", path: "/resource/resource_group/{rg_id}", source: "assumed" },
  listResourceGroups: { method: "GET", path: "/resource/resource_group", source: "platform-api B6 (the operator's SDK)" },
  deleteResourceGroup: { method: "DELETE", path: "/resource/resource_group/{rg_id}", source: "assumed" },
} as const satisfies Record<string, Route>;

export type OperationName = keyof typeof defaultRoutes;
export type RouteTable = { readonly [K in OperationName]: Route };

export const operationNames = Object.keys(defaultRoutes) as OperationName[];

const methods: readonly HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

/**
 * Characters a path may hold besides placeholders: RFC 3986 path characters
 * that URL parsers and gateways leave as they are. Anything else (`%`, `\`,
 * non-ASCII, `{}`) would be encoded or normalised on the way, so the path
 * signed would not be the path sent.
 */
const pathChars = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

/**
 * What is wrong with a path (a route's template, or the path prefix), or
 * undefined when it is usable. Each rule keeps the URL the provider builds,
 * `origin + prefix + path + "?" + signed query`, exactly as signed: a `?` or
 * `#` would move the signature out of the query (a `#` cuts it off the URL),
 * whitespace would be encoded, and `.`/`..` segments would be resolved away,
 * calling another route than the one signed.
 */
export function pathProblem(path: string, placeholders: boolean): string | undefined {
  if (!path.startsWith("/")) return "must start with '/'";
  if (/\s/.test(path)) return "must not contain whitespace";
  if (path.includes("?")) return "must not contain '?': the provider appends the signed query itself";
  if (path.includes("#")) return "must not contain '#': it would cut the signature off the URL";
  const segments = path.split("/").slice(1);
  for (const [i, segment] of segments.entries()) {
    if (segment === "." || segment === "..")
      return `must not contain a '${segment}' segment: it would be resolved away, calling another path than the one signed`;
    // A trailing slash is a style some APIs use; "//" elsewhere is a different path on most gateways.
    if (segment === "" && i < segments.length - 1) return "must not contain an empty segment ('//')";
  }
  const rest = placeholders ? path.replace(/\{\w+\}/g, "") : path;
  if (placeholders && /[{}]/.test(rest)) return "may use braces only for placeholders such as {rg_id} (letters, digits and '_')";
  if (!pathChars.test(rest)) {
    return `may contain only letters, digits, '/' and - . _ ~ ! $ & ' ( ) * + , ; = : @${placeholders ? " besides {placeholders}" : ""}`;
  }
  return undefined;
}

/** The result of reading one route override: the route, or the rule it breaks. */
export type RouteOverride = { readonly route: Route; readonly problem?: undefined } | { readonly route?: undefined; readonly problem: string };

/**
 * Reads one override, written as `"METHOD /path/{param}"` (or just a path,
 * which keeps the method). An override makes the route the user's, no longer
 * assumed. The path must pass {@link pathProblem} and use exactly the
 * placeholders of the operation's default route, each once: the client fills
 * those and no others, so another name could never be filled.
 *
 * `problem` starts with the operation's name and ends with the shape expected
 * and the value given, ready to follow the name of the setting.
 */
export function readRouteOverride(operation: string, spec: unknown): RouteOverride {
  // Own properties only: "toString" or "__proto__" are not operations.
  if (!Object.hasOwn(defaultRoutes, operation)) {
    return { problem: `names an unknown operation '${operation}'; known operations: ${operationNames.join(", ")}` };
  }
  const base = defaultRoutes[operation as OperationName];
  const expected = pathParams(base.path);
  const shape = `it must look like "${base.method} ${base.path}" (method optional)`;
  if (typeof spec !== "string") {
    return {
      problem:
        `${operation} must be a string; ${shape}, got ` +
        `${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec === "object" ? "an object" : String(spec)}`,
    };
  }
  const fail = (rule: string): RouteOverride => ({ problem: `${operation} ${rule}; ${shape}, got '${shown(spec)}'` });
  const trimmed = spec.trim();
  const split = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(trimmed);
  const method = split?.[1];
  const path = split ? split[2]! : trimmed;
  if (method !== undefined && !(methods as readonly string[]).includes(method)) {
    return fail(`must use the method GET, POST, PUT or DELETE (upper case), got '${shown(method)}'`);
  }
  const problem = pathProblem(path, true);
  if (problem) return fail(`path ${problem}`);
  const found = pathParams(path);
  if (found.length !== expected.length || [...found].sort().join() !== [...expected].sort().join()) {
    const want = expected.length === 0 ? "no placeholder" : `the placeholders ${expected.map((p) => `{${p}}`).join(", ")}, each once`;
    return fail(`path must use ${want} (those of its default route); it has ${found.length === 0 ? "none" : found.map((p) => `{${p}}`).join(", ")}`);
  }
  return { route: { method: (method as HttpMethod | undefined) ?? base.method, path, source: "configured" } };
}

/**
 * Applies overrides (see {@link readRouteOverride}). The settings check them
 * when they are resolved (config.ts); this checks again with the same rules for
 * programs that build a client themselves. Throws AICP_CONFIG.
 */
export function resolveRoutes(overrides: Readonly<Record<string, string>> = {}): RouteTable {
  const table: Record<string, Route> = { ...defaultRoutes };
  for (const [name, spec] of Object.entries(overrides)) {
    const read = readRouteOverride(name, spec);
    if (read.problem !== undefined) throw new AicpError("AICP_CONFIG", `aicp:routes: ${read.problem}`);
    table[name] = read.route;
  }
  return table as RouteTable;
}

/** A value as quoted in a message: control characters escaped, long values shortened. */
function shown(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped.length > 120 ? `${escaped.slice(0, 120)}…` : escaped;
}

/** Placeholder names of a path template, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * Fills a path template, encoding each value as exactly one path segment, so a
 * value such as `../x` or `a/b` can never change which route is called.
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new AicpError("AICP_VALIDATION", `path parameter '${name}' is required; nothing was sent to the platform`);
    if (value === "." || value === "..")
      throw new AicpError("AICP_VALIDATION", `path parameter '${name}' must not be '${value}'; nothing was sent to the platform`);
    return encodeURIComponent(value);
  });
}
