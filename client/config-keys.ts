/**
 * The provider's configuration keys, each with its environment fallback,
 * default, type and document: the one table the settings (client/config.ts),
 * the plugin's schema and docs/configuration.md's table read.
 */
/**
 * Every configuration key: its environment fallback, default, type, and what
 * it is (the plugin's schema declares these; docs/configuration.md's table mirrors them,
 * test/unit/config-keys.test.ts compares).
 */
export const configKeys = {
  baseUrl: {
    key: "aicp:baseUrl",
    env: "AICP_BASE_URL",
    default: "https://ai.coreshub.cn",
    type: "string",
    doc: "Origin of the platform's API, e.g. https://ai.coreshub.cn.",
  },
  pathPrefix: {
    key: "aicp:pathPrefix",
    env: "AICP_PATH_PREFIX",
    type: "string",
    doc: "Path prefix of the API (/aicp or /qai/aicp); learned from the platform when not set.",
  },
  signatureBody: {
    key: "aicp:signatureBody",
    env: "AICP_SIGNATURE_BODY",
    type: "string",
    doc: "What a write's signature hashes (empty or body); learned from the first write when not set.",
  },
  platformTimeZone: {
    key: "aicp:platformTimeZone",
    env: "AICP_PLATFORM_TIME_ZONE",
    type: "string",
    doc: "Zone of date-times the platform writes without one, e.g. +08:00; learned when not set.",
  },
  // No environment fallback: one variable set for a pipeline would give every stack it runs the same identity.
  stackMark: {
    key: "aicp:stackMark",
    type: "string",
    doc:
      "This stack's identity, 16 to 64 letters, digits, '-' or '_' (`echo s2-$(openssl rand -hex 16)`), from which marks and auto-names derive; " +
      "pinned, it outlives destroy and plugin upgrades (docs/identity.md); one of the form `s2-` and 32 hex characters puts the stack's token " +
      "in its auto-names, so the provider lists the stack's notebooks alone. Must differ in every stack, and equal the one the state records.",
  },
  accessKeyId: { key: "aicp:accessKeyId", env: "QY_ACCESS_KEY_ID", type: "string", doc: "Access key id of the account." },
  secretAccessKey: { key: "aicp:secretAccessKey", env: "QY_SECRET_ACCESS_KEY", type: "string", secret: true, doc: "Secret access key of the account." },
  userId: { key: "aicp:userId", env: "CORESHUB_USER_ID", type: "string", doc: "The user the provider acts for; its namespace is the id in lower case." },
  zone: { key: "aicp:zone", env: "AICP_ZONE", type: "string", doc: "Zone sent with every request, e.g. xb3." },
  routes: {
    key: "aicp:routes",
    env: "AICP_ROUTES",
    type: "string",
    doc: "JSON object of route overrides for operations whose path the platform does not document.",
  },
  requestTimeoutSeconds: {
    key: "aicp:requestTimeoutSeconds",
    env: "AICP_REQUEST_TIMEOUT_SECONDS",
    default: "30",
    type: "number",
    doc: "Timeout of one request, in seconds (default 30).",
  },
  maxRequestsPerSecond: {
    key: "aicp:maxRequestsPerSecond",
    env: "AICP_MAX_REQUESTS_PER_SECOND",
    type: "number",
    doc:
      "Most requests per second one client sends, e.g. 0.5; unset: no ceiling. A stack's resources share one client; its functions have " +
      "their own. The platform allows 2,000 requests per hour per user, shared by every stack of the account.",
  },
  maxConnections: {
    key: "aicp:maxConnections",
    env: "AICP_MAX_CONNECTIONS",
    default: "16",
    type: "number",
    doc: "Most requests at once, and connections open, of one client, 1 to 256 (default 16); a stack's resources share one client.",
  },
  quotaWaitSeconds: {
    key: "aicp:quotaWaitSeconds",
    env: "AICP_QUOTA_WAIT_SECONDS",
    default: "600",
    type: "number",
    doc:
      "How long one request waits in all for the platform's quota (HTTP 429, each time as long as its Retry-After says, at least a second) " +
      "before it fails, in seconds (default 600).",
  },
  allowInsecureHttp: {
    key: "aicp:allowInsecureHttp",
    env: "AICP_ALLOW_INSECURE_HTTP",
    default: "false",
    type: "boolean",
    doc: "Allow an http:// baseUrl other than localhost (default false).",
  },
  skipCredentialsValidation: {
    key: "aicp:skipCredentialsValidation",
    env: "AICP_SKIP_CREDENTIALS_VALIDATION",
    default: "false",
    type: "boolean",
    doc: "Skip the one read that checks keys, zone, base URL and user id when the provider starts (for an offline preview; default false).",
  },
  // The TypeScript package's bound on a group's delete; the plugin takes the engine's customTimeouts.delete instead, so its schema omits it.
  deleteTimeoutSeconds: {
    key: "aicp:deleteTimeoutSeconds",
    env: "AICP_DELETE_TIMEOUT_SECONDS",
    default: "300",
    type: "number",
    packageOnly: true,
    doc: "How long a destroy waits for a deleted resource group to stop being listed, in seconds (default 300).",
  },
} as const satisfies Record<string, ConfigKey>;

/** One configuration key. */
export interface ConfigKey {
  readonly key: `aicp:${string}`;
  /** Its environment variable; none where the value must differ between stacks. */
  readonly env?: string;
  readonly default?: string;
  readonly type: "string" | "number" | "boolean";
  /** Kept secret (the engine encrypts it in the state, as all provider configuration). */
  readonly secret?: true;
  /** Left out of the plugin's schema: the plugin has the engine's own way to set it. */
  readonly packageOnly?: true;
  readonly doc: string;
}
