/**
 * The platform's QingCloud-style request signature (platform notes §4), shared
 * by the client, which signs, and the emulator, which verifies.
 *
 *   string to sign = METHOD \n path-with-trailing-slash \n sorted-encoded-query \n hex MD5 of body
 *   signature      = Base64(HMAC-SHA256(secret_access_key, string to sign))
 *
 * The query includes `access_key_id` and excludes `signature`; the body hash is
 * the MD5 of the exact bytes sent (an empty body for GET).
 */
import { createHash, createHmac } from "node:crypto";

/** One query parameter; an array value becomes repeated keys. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - _ . ~ is encoded. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Query parameters as sorted `[name, value]` pairs: by name, then array values by value. */
export function sortedPairs(query: Readonly<Record<string, QueryValue | undefined>>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value.map(String).sort() : [String(value)];
    for (const v of values) pairs.push([name, v]);
  }
  return pairs;
}

/** The canonical query string: sorted pairs, each side percent-encoded. */
export function canonicalQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&");
}

export function md5Hex(body: string | Uint8Array): string {
  return createHash("md5").update(body).digest("hex");
}

export function stringToSign(method: string, path: string, pairs: ReadonlyArray<readonly [string, string]>, body: string | Uint8Array): string {
  const signedPath = path.endsWith("/") ? path : path + "/";
  return [method.toUpperCase(), signedPath, canonicalQuery(pairs), md5Hex(body)].join("\n");
}

export function signature(secretAccessKey: string, toSign: string): string {
  return createHmac("sha256", secretAccessKey).update(toSign).digest("base64");
}

/**
 * Builds the signed query string for a request: the canonical query with
 * `access_key_id`, then `&signature=` with the signature percent-encoded once.
 */
export function signedQueryString(input: {
  method: string;
  path: string;
  query: Readonly<Record<string, QueryValue | undefined>>;
  body: string;
  accessKeyId: string;
  secretAccessKey: string;
}): string {
  const pairs = sortedPairs({ ...input.query, access_key_id: input.accessKeyId });
  const sig = signature(input.secretAccessKey, stringToSign(input.method, input.path, pairs, input.body));
  return `${canonicalQuery(pairs)}&signature=${percentEncode(sig)}`;
}
