/**
 * The platform's QingCloud-style request signature (platform-api B4).
 *
 *   string to sign = METHOD \n path-with-trailing-slash \n canonical query \n hex MD5
 *   signature      = Base64(HMAC-SHA256(secret_access_key, string to sign))
 *
 * The canonical query is built the way the platform's public clients build it
 * (Python `urlencode(sorted, safe='/', quote_via=quote, doseq=True)`): pairs
 * sorted by name, array values sorted with numbers in numeric order, every
 * byte but `A-Z a-z 0-9 - _ . ~ /` percent-encoded. It includes
 * `access_key_id` and excludes `signature`.
 *
 * The last line is the MD5 of the body or of the empty string: every public
 * client hashes the empty string, and which one the platform checks on a
 * write is unknown (platform-api B4), so the caller chooses.
 */
import { createHash, createHmac } from "node:crypto";

/** One query parameter; an array value becomes repeated keys. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

/** What the MD5 line of the string to sign covers on a request with a body. */
export type BodyHash = "empty" | "body";

/** Percent-encoding as Python's `quote(value, safe='/')`: a `/` stays as it is. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%2F/g, "/");
}

/**
 * Text in the order Python's `sorted` gives: by code point. JavaScript's
 * default sort compares UTF-16 units, which puts a character above U+FFFF
 * (an emoji) before one of U+E000..U+FFFF; UTF-8 bytes compare as code points.
 */
function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Array values in the order Python's `sorted` gives: numbers numerically, everything else as text. */
function sortValues(values: ReadonlyArray<string | number | boolean>): string[] {
  const numeric = values.every((v) => typeof v === "number");
  const sorted = numeric ? [...(values as number[])].sort((a, b) => a - b) : values.map(String).sort(byCodePoint);
  return sorted.map(String);
}

/** Query parameters as sorted `[name, value]` pairs: by name, then array values by value. */
export function sortedPairs(query: Readonly<Record<string, QueryValue | undefined>>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const name of Object.keys(query).sort(byCodePoint)) {
    const value = query[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? sortValues(value) : [String(value)];
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

export function stringToSign(method: string, path: string, pairs: ReadonlyArray<readonly [string, string]>, hashed: string | Uint8Array): string {
  const signedPath = path.endsWith("/") ? path : path + "/";
  return [method.toUpperCase(), signedPath, canonicalQuery(pairs), md5Hex(hashed)].join("\n");
}

export function signature(secretAccessKey: string, toSign: string): string {
  return createHmac("sha256", secretAccessKey).update(toSign).digest("base64");
}

/**
 * Builds the signed query string for a request: the canonical query with
 * `access_key_id`, then `&signature=` with the signature percent-encoded once
 * (as the docs and the operator's SDK send it).
 */
export function signedQueryString(input: {
  method: string;
  path: string;
  query: Readonly<Record<string, QueryValue | undefined>>;
  body: string;
  bodyHash: BodyHash;
  accessKeyId: string;
  secretAccessKey: string;
}): string {
  const pairs = sortedPairs({ ...input.query, access_key_id: input.accessKeyId });
  const hashed = input.bodyHash === "body" ? input.body : "";
  const sig = signature(input.secretAccessKey, stringToSign(input.method, input.path, pairs, hashed));
  return `${canonicalQuery(pairs)}&signature=${encodeURIComponent(sig)}`;
}
