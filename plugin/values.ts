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

/**
 * `value` with every secret mark taken off, at any depth. What a mark held is
 * remembered as it comes off (provider/secrets.ts rememberLeaves): no message
 * the provider prints shows it, however the platform echoes it.
 */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) {
    const revealed = reveal(value.value);
    rememberLeaves(revealed);
    return revealed;
  }
  if (Array.isArray(value)) return value.map(reveal);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

/** The properties with those named kept secret (those present; a null or absent one has nothing to hide). */
export function withSecrets(properties: Record<string, unknown>, secretNames: readonly string[]): Record<string, unknown> {
  const out = { ...properties };
  for (const name of secretNames) if (out[name] !== undefined && out[name] !== null) out[name] = secret(out[name]);
  return out;
}
