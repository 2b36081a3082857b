/**
 * Keeping passwords out of everything the engine handles in plain text.
 *
 * The engine's nodejs dynamic provider does not accept secrets, so every value
 * a provider receives or returns crosses the engine unwrapped, and at `-v=9`
 * the engine logs the fields of objects it marshals. A password therefore
 * never goes into our outputs: the registry password is recorded as a keyed
 * digest (enough to see that it changed), and server passwords are left out
 * (programs read them with getNotebookServers, outside the engine).
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { sameValue } from "./inputs";
import { rememberSecret } from "../client/errors";

/** What the outputs record of registry credentials: no password, only its digest. */
export interface RecordedImageSecret {
  hasAuth?: boolean;
  username?: string;
  passwordDigest?: string;
}

/**
 * scrypt of the password with a random salt written beside it. It depends on
 * nothing but the password, so rotating the access key changes no digest
 * (an HMAC keyed with the secret key did, and restarted every notebook with a
 * registry password); scrypt's cost slows guessing from a leaked state.
 */
export function passwordDigest(password: string, salt = randomBytes(16).toString("hex")): string {
  return `scrypt:${salt}:${scryptSync(password, salt, 32).toString("hex")}`;
}

/**
 * Whether `password` is the one `digest` was made from. Digests recorded by
 * earlier versions (HMAC-SHA256 keyed with the secret key) are still read,
 * with the key they were made with if it is still the one configured.
 */
export function matchesDigest(password: string, digest: unknown, legacyKey: string): boolean {
  if (typeof digest !== "string") return false;
  const salted = /^scrypt:([0-9a-f]+):([0-9a-f]{64})$/.exec(digest);
  if (salted) return timingSafeEqual(Buffer.from(passwordDigest(password, salted[1]!)), Buffer.from(digest));
  return digest === "hmac-sha256:" + createHmac("sha256", legacyKey).update(password).digest("hex");
}

export function recordImageSecret(secret: { hasAuth?: boolean; username?: string; password?: string } | undefined): RecordedImageSecret | undefined {
  if (!secret) return undefined;
  const { password, ...rest } = secret;
  return password === undefined ? rest : { ...rest, passwordDigest: passwordDigest(password) };
}

/**
 * Credentials in the form the state records them: a digest, no password.
 * Inputs hold this form only when `ignoreChanges` keeps what a refresh
 * recorded (read returns the recorded inputs).
 */
export function isRecordedSecret(secret: unknown): secret is RecordedImageSecret {
  return secret !== null && typeof secret === "object" && "passwordDigest" in secret && !("password" in secret) && !("passwordFromEnv" in secret);
}

/** Whether recorded credentials (password as a digest) are the wanted ones. */
export function sameRecordedSecret(
  recorded: unknown,
  wanted: { hasAuth?: boolean; username?: string; password?: string } | undefined,
  legacyKey: string,
): boolean {
  if (isRecordedSecret(wanted)) return sameValue(recorded, wanted);
  if (wanted === undefined || recorded === undefined || recorded === null) return (wanted === undefined) === (recorded === undefined || recorded === null);
  const { passwordDigest: digest, ...rest } = recorded as RecordedImageSecret;
  const { password, ...wantedRest } = wanted;
  return sameValue(rest, wantedRest) && (password === undefined ? digest === undefined : matchesDigest(password, digest, legacyKey));
}

/**
 * Env entries without their values, for a function's result (not secret where
 * a program puts it): env values often hold tokens. Names, and a Kubernetes
 * `valueFrom` reference, stay; an entry that is not an object carries no
 * value of its own and stays.
 */
export function withoutEnvValues(envs: unknown): unknown {
  if (!Array.isArray(envs)) return envs;
  return envs.map((env) => {
    if (env === null || typeof env !== "object") return env;
    const { value: _value, ...rest } = env as Record<string, unknown>;
    return rest;
  });
}

/** Servers as recorded in outputs: everything but the password (entries that are not objects carry none and stay). */
export function withoutServerPasswords<T extends { password?: unknown }>(servers: T[] | null | undefined): Array<Omit<T, "password">> | undefined {
  return servers?.map((server) => {
    if (server === null || typeof server !== "object") return server;
    const { password: _password, ...rest } = server;
    return rest;
  });
}

/**
 * Remembers (client/errors.ts rememberSecret) every value under the paths the
 * program marked secret, as the SDK lists them in `secretInputs`
 * (sdk/secret-paths.ts): each error and warning is then printed without them,
 * however the platform echoes the request. Strings and numbers at any depth
 * below a path count; anything else of `props` is left alone.
 */
export function rememberMarkedSecrets(props: unknown): void {
  if (props === null || typeof props !== "object") return;
  const paths = (props as { secretInputs?: unknown }).secretInputs;
  if (!Array.isArray(paths)) return;
  for (const path of paths) if (typeof path === "string") rememberLeaves(valueAtPath(props, path));
}

/** The top-level properties of `props` that hold a value the program marked secret (`secretInputs`). */
export function markedTopKeys(props: unknown): string[] {
  const paths = props !== null && typeof props === "object" ? (props as { secretInputs?: unknown }).secretInputs : undefined;
  if (!Array.isArray(paths)) return [];
  return paths.filter((path): path is string => typeof path === "string").map((path) => /^[^.[]+/.exec(path)?.[0] ?? path);
}

/** Every string and number held in `value`, at any depth, remembered as a secret. */
export function rememberLeaves(value: unknown): void {
  if (typeof value === "string") rememberSecret(value);
  else if (typeof value === "number") rememberSecret(String(value));
  else if (Array.isArray(value)) value.forEach(rememberLeaves);
  else if (value !== null && typeof value === "object") Object.values(value).forEach(rememberLeaves);
}

/** The value at `replicaSpecs.specs` or `envs[0].value` of `root`; undefined where the path leads nowhere. */
function valueAtPath(root: unknown, path: string): unknown {
  let at = root;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (at === null || typeof at !== "object") return undefined;
    at = Reflect.get(at, index ?? key ?? "");
  }
  return at;
}
