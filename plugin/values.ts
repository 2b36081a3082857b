/**
 * Property values as the engine sends and takes them over gRPC (a protobuf
 * Struct turned into JSON): a secret is an object carrying Pulumi's
 * signature key, and a value not known yet (in a preview) is one fixed
 * string. The lifecycles take plain values, as the dynamic provider hands
 * them; this file is the one place the marks are taken off and put back.
 */
import { rememberLeaves } from "../provider/secrets";

// The key of Pulumi's special values, its value for a secret, and a value the engine does not know yet (in a preview),
// as the SDK's rpc marshalling names them.
import { specialSecretSig as secretSignature, specialSigKey as signatureKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";

export { unknownValue };

/** `value` as a secret the engine keeps encrypted. */
export function secret(value: unknown): Record<string, unknown> {
  return { [signatureKey]: secretSignature, value };
}

function isSecret(value: unknown): value is { value: unknown } {
  return value !== null && typeof value === "object" && (value as Record<string, unknown>)[signatureKey] === secretSignature;
}

/** Whether `value` holds a secret at any depth. */
export function holdsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsSecret);
  return false;
}

/** `value` with every secret mark taken off, at any depth. */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

/**
 * Program inputs (a Check's news, the inputs recorded with a resource, a
 * function's arguments) with every secret mark taken off, what each mark held
 * remembered (provider/secrets.ts rememberLeaves): no message the provider
 * prints shows it, however the platform echoes it. Outputs are revealed
 * without remembering: the plugin records a property holding a secret as a
 * secret as a whole, and what the platform filled in beside the program's
 * value (an id, a default) is no secret.
 */
export function revealInputs(value: unknown): unknown {
  rememberMarked(value);
  return reveal(value);
}

function rememberMarked(value: unknown): void {
  if (isSecret(value)) rememberLeaves(reveal(value.value));
  else if (Array.isArray(value)) value.forEach(rememberMarked);
  else if (value !== null && typeof value === "object") Object.values(value).forEach(rememberMarked);
}

/** Where a value sits in a property tree: keys and array indexes. */
export type PropertyPath = ReadonlyArray<string | number>;

/** The paths of the secret marks in `value`, outermost only (a mark inside a mark adds nothing). */
export function secretPaths(value: unknown, at: PropertyPath = []): PropertyPath[] {
  if (isSecret(value)) return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => secretPaths(item, [...at, i]));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => secretPaths(item, [...at, key]));
  return [];
}

/**
 * `properties` with the value at each of `paths` marked secret, where it is
 * present: the marks a program put on its inputs, put back on what the plugin
 * answers (checked inputs, outputs) at the same places, so a value beside a
 * marked one stays readable.
 */
export function withSecretsAt(properties: Record<string, unknown>, paths: readonly PropertyPath[]): Record<string, unknown> {
  const markAt = (value: unknown, path: PropertyPath): unknown => {
    if (value === undefined || value === null || isSecret(value)) return value;
    if (path.length === 0) return secret(value);
    const [key, ...rest] = path;
    if (Array.isArray(value) && typeof key === "number" && key < value.length) return value.map((item, i) => (i === key ? markAt(item, rest) : item));
    if (typeof value === "object" && !Array.isArray(value) && typeof key === "string" && Object.hasOwn(value, key)) {
      return { ...(value as Record<string, unknown>), [key]: markAt((value as Record<string, unknown>)[key], rest) };
    }
    return value;
  };
  return paths.reduce<Record<string, unknown>>((marked, path) => markAt(marked, path) as Record<string, unknown>, properties);
}

/** The properties with those named kept secret (those present; a null or absent one has nothing to hide). */
export function withSecrets(properties: Record<string, unknown>, secretNames: readonly string[]): Record<string, unknown> {
  const out = { ...properties };
  for (const name of secretNames) if (out[name] !== undefined && out[name] !== null) out[name] = secret(out[name]);
  return out;
}
