/**
 * Provider configuration: each `aicp:*` key from stack config first, then its
 * environment variable, then the default. Used in the dynamic-provider process
 * (fed by `configure()`) and in the program (for the data-source functions).
 */
import { AicpClient } from "./client";
import { AicpError, rememberSecret } from "./errors";
import { readRouteOverride } from "./routes";
import type { BodyHash } from "./signature";
import type { TransportOptions } from "./transport";
import { parseZone } from "./times";
import { z } from "zod";
import { configKeys, type ConfigKey } from "./config-keys";
import { settingRules, shown } from "./config-rules";
import { userAgent, type Front } from "./user-agent";

export { configKeys } from "./config-keys";

/** A source of configuration values by full key, e.g. `aicp:baseUrl`. */
export type ConfigSource = (key: string) => string | undefined;

export interface Settings {
  readonly baseUrl: string;
  /** Pinned path prefix; absent: learned from the platform's answers (platform-api B3). */
  readonly pathPrefix?: string;
  /** Pinned body convention of the signature; absent: learned from the first write (platform-api B4). */
  readonly signatureBody?: BodyHash;
  /** Zone of date-times the platform writes without one; absent: learned (see client/times.ts). */
  readonly platformTimeZone?: string;
  /** The stack's pinned identity (docs/identity.md); absent: the one its state records, else a new one. */
  readonly stackMark?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly userId?: string;
  readonly zone?: string;
  readonly routes: Readonly<Record<string, string>>;
  readonly requestTimeoutMs: number;
  /** Most requests per second a client sends; absent: no ceiling. */
  readonly maxRequestsPerSecond?: number;
  /** Most connections a client holds open. */
  readonly maxConnections: number;
  /** How long one request waits in all for the platform's quota (429) before it fails. */
  readonly quotaWaitMs: number;
  /** How long a destroy waits for a deleted resource group to stop being listed (the plugin's customTimeouts.delete overrides it). */
  readonly deleteTimeoutMs: number;
  readonly allowInsecureHttp: boolean;
  /** Leave out the one read configure makes to check the settings (an offline preview). */
  readonly skipCredentialsValidation: boolean;
}

type Name = keyof typeof configKeys;

function lookup(name: Name, source: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  const entry: ConfigKey = configKeys[name];
  const value = source(entry.key) ?? (entry.env === undefined ? undefined : env[entry.env]);
  if (value !== undefined && value !== "") return value;
  return "default" in entry ? entry.default : undefined;
}

function configError(message: string): AicpError {
  return new AicpError("AICP_CONFIG", message);
}

/** How messages name a setting: the key, then the variable it falls back to. */
export function named(name: Name): string {
  const entry: ConfigKey = configKeys[name];
  return entry.env === undefined ? entry.key : `${entry.key} (or ${entry.env})`;
}

type RuledName = keyof typeof settingRules;

/** The setting as configured, checked by its rule; undefined where it is not set and has no default. */
function checked<K extends RuledName>(name: K, source: ConfigSource, env: NodeJS.ProcessEnv): z.output<(typeof settingRules)[K]> | undefined {
  const value = lookup(name, source, env);
  if (value === undefined) return undefined;
  const verdict = settingRules[name].safeParse(value);
  if (!verdict.success) throw configError(`${named(name)} ${verdict.error.issues[0]?.message ?? "is not valid"}, got '${shown(value)}'`);
  return verdict.data as z.output<(typeof settingRules)[K]>;
}

/**
 * Reads and checks every setting, once: this is where the provider process
 * (at configure), the program's functions and `pulumi-aicp doctor` get them.
 * Throws AICP_CONFIG naming the key, its environment variable and the rule;
 * credentials are never quoted, nor a base URL that may hold them.
 */
export function resolveSettings(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): Settings {
  const allowInsecureHttp = checked("allowInsecureHttp", source, env)!;
  const skipCredentialsValidation = checked("skipCredentialsValidation", source, env)!;
  const baseUrl = readBaseUrl(lookup("baseUrl", source, env)!, allowInsecureHttp);
  const routes = readRoutes(lookup("routes", source, env));
  const pathPrefix = checked("pathPrefix", source, env);
  const signatureBody = checked("signatureBody", source, env);
  const zone = checked("zone", source, env);
  const platformTimeZone = checked("platformTimeZone", source, env);
  const stackMark = checked("stackMark", source, env);
  const timeout = checked("requestTimeoutSeconds", source, env)!;
  const deleteTimeout = checked("deleteTimeoutSeconds", source, env)!;
  const maxRequestsPerSecond = checked("maxRequestsPerSecond", source, env);
  const maxConnections = checked("maxConnections", source, env)!;
  const quotaWait = checked("quotaWaitSeconds", source, env)!;
  const accessKeyId = readCredential("accessKeyId", source, env);
  const secretAccessKey = readCredential("secretAccessKey", source, env);
  // Never printed, even when a platform echoes it back in an error (client/errors.ts).
  rememberSecret(secretAccessKey);
  const userId = checked("userId", source, env);
  return {
    baseUrl,
    pathPrefix,
    signatureBody,
    platformTimeZone,
    stackMark,
    accessKeyId,
    secretAccessKey,
    userId,
    zone,
    routes,
    requestTimeoutMs: Math.round(timeout * 1000),
    deleteTimeoutMs: Math.round(deleteTimeout * 1000),
    maxRequestsPerSecond,
    maxConnections,
    quotaWaitMs: Math.round(quotaWait * 1000),
    allowInsecureHttp,
    skipCredentialsValidation,
  };
}

/**
 * The origin of aicp:baseUrl. Checked before anything quotes it: a URL with
 * credentials is refused without quoting it, and one that does not parse is
 * quoted only when it has no '@' (without one it cannot hold a user or
 * password). A path, query or fragment is refused rather than dropped.
 */
function readBaseUrl(value: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    const got = value.includes("@") ? "a value that does not parse (not shown: it has an '@', so it may hold credentials)" : `'${shown(value)}'`;
    throw configError(`${named("baseUrl")} must be an absolute URL such as https://ai.coreshub.cn, got ${got}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw configError(
      `${named("baseUrl")} must not carry credentials (user:password@ before the host); it is not shown here. ` +
        `Set the access key in ${configKeys.accessKeyId.key} and ${configKeys.secretAccessKey.key} instead.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configError(`${named("baseUrl")} must use https:// (or http:// to a loopback address), got '${shown(url.protocol)}'`);
  }
  // Only the origin is quoted from here on: a query may hold a token.
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    const extra = url.pathname !== "/" ? `a path (a path prefix goes in ${named("pathPrefix")})` : url.search !== "" ? "a query" : "a fragment";
    throw configError(
      `${named("baseUrl")} must be an origin such as https://ai.coreshub.cn, without path, query or fragment; '${url.origin}' was given with ${extra}`,
    );
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw configError(
      `${named("baseUrl")} '${url.origin}' uses plain http to a host that is not loopback, which would send signed requests unencrypted. ` +
        `Use https://, or set ${named("allowInsecureHttp")} to true if you accept that.`,
    );
  }
  return url.origin;
}

/**
 * The overrides of aicp:routes, each checked by the rules of the route table
 * (client/routes.ts): known operation, method, path shape, placeholders.
 */
function readRoutes(text: string | undefined): Record<string, string> {
  if (!text) return {};
  const example = `{"deleteResourceGroup": "DELETE /resource/resource_group/{rg_id}"}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw configError(`${named("routes")} must be a JSON object such as ${example}, got text that is not JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const got = parsed === null ? "null" : Array.isArray(parsed) ? "an array" : `a ${typeof parsed}`;
    throw configError(`${named("routes")} must be a JSON object such as ${example}, got ${got}`);
  }
  const routes: Record<string, string> = {};
  for (const [operation, spec] of Object.entries(parsed)) {
    const read = readRouteOverride(operation, spec);
    if (read.problem !== undefined) throw configError(`${named("routes")}: ${read.problem}`);
    routes[operation] = spec as string;
  }
  return routes;
}

/**
 * A credential as configured. Whitespace (most often a newline pasted with the
 * key) would only surface as a refused signature; it is refused here, naming
 * the key but never quoting the value.
 */
function readCredential(name: "accessKeyId" | "secretAccessKey", source: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  const value = lookup(name, source, env);
  if (value !== undefined && /[\s\p{Cc}]/u.test(value)) {
    throw configError(`${named(name)} must not contain whitespace or control characters (a pasted newline?); the value is not shown`);
  }
  return value;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The user id, required where the platform needs one (namespace, owner). */
export function requireUserId(settings: Settings): string {
  if (!settings.userId) {
    throw configError(
      "no user id configured: set aicp:userId (`pulumi config set aicp:userId usr-...`) or CORESHUB_USER_ID, or pass namespace and userId explicitly",
    );
  }
  return settings.userId;
}

/**
 * Builds a client; throws AICP_CONFIG before any request when a credential is
 * missing. `options` shorten the timeouts for a reader that must not hold a
 * preview up (the guardrails pack, policy/templates.ts), say where a quota
 * notice goes, and name the front its User-Agent states.
 */
export function createClient(
  settings: Settings,
  options: Pick<TransportOptions, "timeoutMs" | "retryBudgetMs" | "onQuota"> & { readonly front?: Front } = {},
): AicpClient {
  const { front, ...limits } = options;
  const missing = (["accessKeyId", "secretAccessKey"] as const).filter((k) => !settings[k]);
  if (missing.length > 0) {
    const named = (keys: ReadonlyArray<"accessKeyId" | "secretAccessKey" | "userId" | "zone">) =>
      keys.map((k) => `${configKeys[k].key} (env ${configKeys[k].env})`).join(" and ");
    // A first run usually lacks the user id and zone too: one message names them all, rather than one per run.
    const alsoUnset = (["userId", "zone"] as const).filter((k) => !settings[k]);
    throw configError(
      `missing AICP credentials: set ${named(missing)}. For example: pulumi config set aicp:accessKeyId AKID... && pulumi config set --secret ` +
        `aicp:secretAccessKey ...` +
        (alsoUnset.length > 0 ? `; not set either: ${named(alsoUnset)} (a Notebook needs the user id; a platform may require the zone)` : ""),
    );
  }
  return new AicpClient({
    baseUrl: settings.baseUrl,
    pathPrefix: settings.pathPrefix,
    signatureBody: settings.signatureBody,
    zone: settings.zone,
    platformTimeZone: settings.platformTimeZone === undefined ? undefined : parseZone(settings.platformTimeZone),
    credentials: { accessKeyId: settings.accessKeyId!, secretAccessKey: settings.secretAccessKey! },
    routes: settings.routes,
    timeoutMs: settings.requestTimeoutMs,
    maxRequestsPerSecond: settings.maxRequestsPerSecond,
    connections: settings.maxConnections,
    quotaWaitMs: settings.quotaWaitMs,
    userAgent: userAgent(front),
    ...limits,
  });
}
