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

/** The properties with those named kept secret (those present; a null or absent one has nothing to hide). */
export function withSecrets(properties: Record<string, unknown>, secretNames: readonly string[]): Record<string, unknown> {
  const out = { ...properties };
  for (const name of secretNames) if (out[name] !== undefined && out[name] !== null) out[name] = secret(out[name]);
  return out;
}
