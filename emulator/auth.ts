/**
 * Verifies the platform's signed query string (platform notes §4) with the
 * provider's own signature module, so signer and verifier cannot drift apart.
 * Accepted variants, as the notes require: the path with or without its
 * trailing slash (stringToSign adds it), and the signature percent-encoded
 * once or twice (the public client encodes it twice).
 */
import { timingSafeEqual } from "node:crypto";
import { signature, sortedPairs, stringToSign } from "../provider/client/signature";
import { ApiError } from "./errors";
import { groupPairs } from "./query";

/** An accepted access key and the user it acts for. */
export interface Credential {
  accessKeyId: string;
  secretAccessKey: string;
  userId: string;
}

/** The credential used when none is configured. */
export const DEFAULT_CREDENTIAL: Credential = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" };

/** ret_codes of signature failures. */
export const AUTH_CODES = { missing: 1100, unknownKey: 1101, mismatch: 1102 } as const;

/**
 * Returns the credential that signed the request or throws a 401 ApiError.
 * `pairs` are the decoded query pairs, `rawPath` the path as received.
 */
export function verifySignature(
  credentials: readonly Credential[],
  method: string,
  rawPath: string,
  pairs: ReadonlyArray<readonly [string, string]>,
  body: Uint8Array,
): Credential {
  const sigs = pairs.filter(([k]) => k === "signature").map(([, v]) => v);
  const keys = pairs.filter(([k]) => k === "access_key_id").map(([, v]) => v);
  if (sigs.length === 0 || sigs[0] === "") {
    throw new ApiError(401, AUTH_CODES.missing, "signature is missing: sign the request and add the access_key_id and signature query parameters");
  }
  if (keys.length !== 1 || keys[0] === "") {
    throw new ApiError(401, AUTH_CODES.missing, "access_key_id is missing (or given more than once) in the query string");
  }
  if (sigs.length > 1) throw new ApiError(401, AUTH_CODES.mismatch, "signature is given more than once in the query string");
  const credential = credentials.find((c) => c.accessKeyId === keys[0]);
  if (!credential) throw new ApiError(401, AUTH_CODES.unknownKey, `access_key_id '${keys[0]}' is unknown`);

  const signed = sortedPairs(groupPairs(pairs.filter(([k]) => k !== "signature")));
  const given = signatureCandidates(sigs[0]!);
  for (const path of pathCandidates(rawPath)) {
    const expected = Buffer.from(signature(credential.secretAccessKey, stringToSign(method, path, signed, body)));
    for (const candidate of given) {
      const buf = Buffer.from(candidate);
      if (buf.length === expected.length && timingSafeEqual(buf, expected)) return credential;
    }
  }
  throw new ApiError(401, AUTH_CODES.mismatch, "signature does not match: check the secret access key and sign METHOD, path, sorted query and body MD5 exactly as sent");
}

/** The query value decoded once (by the parser), decoded twice, and with a form-decoded '+' restored. */
function signatureCandidates(value: string): string[] {
  const out = new Set([value, value.replace(/ /g, "+")]);
  try {
    out.add(decodeURIComponent(value));
  } catch {
    // Not encoded a second time.
  }
  return [...out];
}

/** The path as sent, and decoded, in case a signer signed the readable form of a non-ASCII segment. */
function pathCandidates(rawPath: string): string[] {
  const out = new Set([rawPath]);
  try {
    out.add(decodeURI(rawPath));
  } catch {
    // Keep only the raw path.
  }
  return [...out];
}
