/**
 * Provider configuration: each `aicp:*` key from stack config first, then its
 * environment variable, then the default. Used in the dynamic-provider process
 * (fed by `configure()`) and in the program (for the data-source functions).
 */
import { AicpClient } from "./client/client";
import { AicpError } from "./client/errors";
import type { BodyHash } from "./client/signature";
import { parseZone } from "./client/times";

/** A source of configuration values by full key, e.g. `aicp:baseUrl`. */
export type ConfigSource = (key: string) => string | undefined;

export interface Settings {
  readonly baseUrl: string;
  /** Pinned path prefix; absent: learned from the platform's answers (platform notes §3). */
  readonly pathPrefix?: string;
  /** Pinned body convention of the signature; absent: learned from the first write (platform notes §4). */
  readonly signatureBody?: BodyHash;
  /** Zone of date-times the platform writes without one; absent: learned (see client/times.ts). */
  readonly platformTimeZone?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly userId?: string;
  readonly zone?: string;
  readonly routes: Readonly<Record<string, string>>;
  readonly requestTimeoutMs: number;
  readonly allowInsecureHttp: boolean;
}

/** Every configuration key with its environment fallback and meaning; README's table mirrors it. */
export const configKeys = {
  baseUrl: { key: "aicp:baseUrl", env: "AICP_BASE_URL", default: "https://ai.coreshub.cn" },
  pathPrefix: { key: "aicp:pathPrefix", env: "AICP_PATH_PREFIX" },
  signatureBody: { key: "aicp:signatureBody", env: "AICP_SIGNATURE_BODY" },
  platformTimeZone: { key: "aicp:platformTimeZone", env: "AICP_PLATFORM_TIME_ZONE" },
  accessKeyId: { key: "aicp:accessKeyId", env: "QY_ACCESS_KEY_ID" },
  secretAccessKey: { key: "aicp:secretAccessKey", env: "QY_SECRET_ACCESS_KEY" },
  userId: { key: "aicp:userId", env: "CORESHUB_USER_ID" },
  zone: { key: "aicp:zone", env: "AICP_ZONE" },
  routes: { key: "aicp:routes", env: "AICP_ROUTES" },
  requestTimeoutSeconds: { key: "aicp:requestTimeoutSeconds", env: "AICP_REQUEST_TIMEOUT_SECONDS", default: "30" },
  allowInsecureHttp: { key: "aicp:allowInsecureHttp", env: "AICP_ALLOW_INSECURE_HTTP", default: "false" },
} as const;

type Name = keyof typeof configKeys;

function lookup(name: Name, source: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  const entry = configKeys[name];
  const value = source(entry.key) ?? env[entry.env];
  if (value !== undefined && value !== "") return value;
  return "default" in entry ? entry.default : undefined;
}

function configError(message: string): AicpError {
  return new AicpError("AICP_CONFIG", message);
}

/** Reads and checks the settings; throws AICP_CONFIG naming the key and variable at fault. */
export function resolveSettings(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): Settings {
  const baseUrl = lookup("baseUrl", source, env)!;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw configError(`aicp:baseUrl (or AICP_BASE_URL) must be an absolute URL such as https://ai.coreshub.cn, got '${baseUrl}'`);
  }
  const allowInsecureHttp = lookup("allowInsecureHttp", source, env) === "true";
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configError(`aicp:baseUrl must use https:// (or http:// to a loopback address), got '${url.protocol}'`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw configError(
      `aicp:baseUrl '${url.origin}' uses plain http to a host that is not loopback, which would send signed requests unencrypted. ` +
        "Use https://, or set aicp:allowInsecureHttp to true (AICP_ALLOW_INSECURE_HTTP=true) if you accept that.",
    );
  }
  const routesText = lookup("routes", source, env);
  let routes: Record<string, string> = {};
  if (routesText) {
    try {
      routes = JSON.parse(routesText) as Record<string, string>;
    } catch {
      throw configError(`aicp:routes (or AICP_ROUTES) must be a JSON object such as {"deleteResourceGroup": "DELETE /resource/resource_group/{rg_id}"}`);
    }
  }
  const pathPrefix = lookup("pathPrefix", source, env);
  if (pathPrefix !== undefined && !/^\/[\w./-]*$/.test(pathPrefix)) {
    throw configError(`aicp:pathPrefix (or AICP_PATH_PREFIX) must be a path such as /aicp, got '${pathPrefix}'`);
  }
  const signatureBody = lookup("signatureBody", source, env);
  if (signatureBody !== undefined && signatureBody !== "empty" && signatureBody !== "body") {
    throw configError(`aicp:signatureBody (or AICP_SIGNATURE_BODY) must be "empty" or "body", got '${signatureBody}'`);
  }
  const zone = lookup("zone", source, env);
  if (zone !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(zone)) {
    throw configError(`aicp:zone (or AICP_ZONE) must be a zone name such as xb3 (letters, digits, '-' or '_'), got '${zone}'`);
  }
  const platformTimeZone = lookup("platformTimeZone", source, env);
  if (platformTimeZone !== undefined && parseZone(platformTimeZone) === undefined) {
    throw configError(`aicp:platformTimeZone (or AICP_PLATFORM_TIME_ZONE) must be UTC or an offset such as +08:00, got '${platformTimeZone}'`);
  }
  const timeout = Number(lookup("requestTimeoutSeconds", source, env));
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw configError("aicp:requestTimeoutSeconds (or AICP_REQUEST_TIMEOUT_SECONDS) must be a positive number of seconds");
  }
  return {
    baseUrl: url.origin,
    pathPrefix,
    signatureBody,
    platformTimeZone,
    accessKeyId: lookup("accessKeyId", source, env),
    secretAccessKey: lookup("secretAccessKey", source, env),
    userId: lookup("userId", source, env),
    zone,
    routes,
    requestTimeoutMs: timeout * 1000,
    allowInsecureHttp,
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The user id, required where the platform needs one (namespace, owner). */
export function requireUserId(settings: Settings): string {
  if (!settings.userId) {
    throw configError("no user id configured: set aicp:userId (`pulumi config set aicp:userId usr-...`) or CORESHUB_USER_ID, or pass namespace and userId explicitly");
  }
  return settings.userId;
}

/** Builds a client; throws AICP_CONFIG before any request when a credential is missing. */
export function createClient(settings: Settings): AicpClient {
  const missing = (["accessKeyId", "secretAccessKey"] as const).filter((k) => !settings[k]);
  if (missing.length > 0) {
    const named = missing.map((k) => `${configKeys[k].key} (env ${configKeys[k].env})`).join(" and ");
    throw configError(
      `missing AICP credentials: set ${named}. For example: pulumi config set aicp:accessKeyId AKID... && pulumi config set --secret aicp:secretAccessKey ...`,
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
  });
}
