/**
 * Verifies the platform's signed query string, written from platform-api B4:
 *
 *   string to sign = METHOD \n path + "/" \n canonical query \n hex MD5
 *   signature      = Base64(HMAC-SHA256(secret_access_key, string to sign))
 *
 * The server's own canonical form is not documented, so every form a public
 * client builds is a candidate: RFC 3986 percent-encoding, Python's `quote`
 * with `/` left as is (the skills scripts and the MCP server), and the raw
 * `key=value` join (the operator's SDK). Values of a repeated key are tried in
 * the order received, sorted as text, and sorted as numbers (Python's sort).
 * The signature may be percent-encoded once (docs, SDK) or twice (MCP). The
 * MD5 line covers what the dialect's `signatureBody` says, nothing else.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ApiError } from "./errors";
import type { QueryPair } from "./query";
import type { AuthVariant, Dialect } from "./types";

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

/** What a verified request was signed by, and how. */
export interface Verified {
  credential: Credential;
  variant: AuthVariant;
}

/** The request parts the signature covers. */
export interface SignedParts {
  method: string;
  /** The path as received, still encoded. */
  rawPath: string;
  pairs: readonly QueryPair[];
  body: Uint8Array;
}

type Canonical = AuthVariant["canonical"];

/** Bytes a Python `quote(..., safe='/')` keeps; RFC 3986 keeps the same set without `/`. */
const UNRESERVED = /[A-Za-z0-9_.~-]/;

function encodeWith(text: string, keepSlash: boolean): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && (UNRESERVED.test(ch) || (keepSlash && ch === "/")) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const ENCODERS: Record<Canonical, (text: string) => string> = {
  rfc3986: (t) => encodeWith(t, false),
  python: (t) => encodeWith(t, true),
  raw: (t) => t,
};

type Ordering = (values: string[]) => string[];

/** Python's `sorted` order of text, by code point (JavaScript's default sort compares UTF-16 units); UTF-8 bytes compare as code points. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

const ORDERINGS: Ordering[] = [
  (values) => values,
  (values) => [...values].sort(byCodePoint),
  (values) => (values.every((v) => /^-?\d+(\.\d+)?$/.test(v)) ? [...values].sort((a, b) => Number(a) - Number(b)) : values),
];

/** The canonical query strings worth trying, each with the variant that built it. */
function canonicalCandidates(pairs: readonly QueryPair[]): Array<{ canonical: Canonical; text: string }> {
  const names = [...new Set(pairs.map((p) => p.key))].sort(byCodePoint);
  // A '+' in a value reads as a space to a form decoder but meant '+' to a raw signer: try both readings.
  const readings: Array<(p: QueryPair) => string> = [(p) => p.value];
  if (pairs.some((p) => p.literal !== p.value)) readings.push((p) => p.literal);
  const out = new Map<string, Canonical>();
  for (const read of readings) {
    for (const order of ORDERINGS) {
      const sorted = names.flatMap((name) => order(pairs.filter((p) => p.key === name).map(read)).map((v) => [name, v] as const));
      for (const canonical of ["rfc3986", "python", "raw"] as const) {
        const encode = ENCODERS[canonical];
        const text = sorted.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
        if (!out.has(text)) out.set(text, canonical);
      }
    }
  }
  return [...out].map(([text, canonical]) => ({ canonical, text }));
}

/** The path with its trailing slash, as sent and decoded (a signer may have signed a non-ASCII segment unencoded). */
function pathCandidates(rawPath: string): string[] {
  const out = new Set([rawPath]);
  try {
    out.add(decodeURI(rawPath));
  } catch {
    // Keep only the path as sent.
  }
  return [...out].map((p) => (p.endsWith("/") ? p : p + "/"));
}

/** The signature as sent: decoded once by the query parser, and once more when it was encoded twice. */
function signatureCandidates(value: string): Array<{ encoding: AuthVariant["signatureEncoding"]; text: string }> {
  // A bare '+' of Base64 was read as a space by the form decoder.
  const once = value.replace(/ /g, "+");
  const out: Array<{ encoding: AuthVariant["signatureEncoding"]; text: string }> = [{ encoding: "once", text: once }];
  try {
    const twice = decodeURIComponent(value);
    if (twice !== once) out.push({ encoding: "twice", text: twice });
  } catch {
    // Not encoded a second time.
  }
  return out;
}

/**
 * The credential a request names and the signature it carries, checked from
 * the query alone so a request without them is refused before its body is
 * read. Throws a 401 ApiError: 1100 when the signature or key is missing, 1101
 * for an unknown key, 1102 for a signature given twice.
 */
export function signingKey(credentials: readonly Credential[], pairs: readonly QueryPair[]): { credential: Credential; signature: string } {
  const sigs = pairs.filter((p) => p.key === "signature");
  const keys = pairs.filter((p) => p.key === "access_key_id");
  if (sigs.length === 0 || sigs[0]!.value === "") {
    throw new ApiError(401, AUTH_CODES.missing, "signature is missing: sign the request and add the access_key_id and signature query parameters");
  }
  if (keys.length !== 1 || keys[0]!.value === "") {
    throw new ApiError(401, AUTH_CODES.missing, "access_key_id is missing (or given more than once) in the query string");
  }
  if (sigs.length > 1) throw new ApiError(401, AUTH_CODES.mismatch, "signature is given more than once in the query string");
  const credential = credentials.find((c) => c.accessKeyId === keys[0]!.value);
  if (!credential) throw new ApiError(401, AUTH_CODES.unknownKey, `access_key_id '${keys[0]!.value}' is unknown`);
  return { credential, signature: sigs[0]!.value };
}

/**
 * Returns who signed the request and how, or throws a 401 ApiError: those of
 * `signingKey`, and 1102 for a mismatch. `parts.body` matters only under the
 * `body` convention; under `empty` it may be left empty, unread.
 */
export function verifySignature(credentials: readonly Credential[], parts: SignedParts, signatureBody: Dialect["signatureBody"]): Verified {
  const { credential, signature } = signingKey(credentials, parts.pairs);
  const hasBody = parts.body.length > 0;
  const bodyHash: AuthVariant["bodyHash"] = hasBody ? signatureBody : "empty";
  const md5 = createHash("md5")
    .update(bodyHash === "body" ? parts.body : new Uint8Array())
    .digest("hex");
  const given = signatureCandidates(signature).map((s) => ({ ...s, bytes: Buffer.from(s.text) }));
  const signed = parts.pairs.filter((p) => p.key !== "signature");
  for (const path of pathCandidates(parts.rawPath)) {
    for (const { canonical, text } of canonicalCandidates(signed)) {
      const toSign = `${parts.method.toUpperCase()}\n${path}\n${text}\n${md5}`;
      const expected = Buffer.from(createHmac("sha256", credential.secretAccessKey).update(toSign).digest("base64"));
      for (const candidate of given) {
        if (candidate.bytes.length === expected.length && timingSafeEqual(candidate.bytes, expected)) {
          return { credential, variant: { canonical, bodyHash, signatureEncoding: candidate.encoding } };
        }
      }
    }
  }
  throw new ApiError(
    401,
    AUTH_CODES.mismatch,
    "signature does not match: check the secret access key and sign METHOD, the path with a trailing slash, the sorted query and the MD5 line exactly as sent",
  );
}
