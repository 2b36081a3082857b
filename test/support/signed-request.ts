/**
 * A test-only signed HTTP client, written from platform-api B4 and from
 * reading what the platform's published clients send, not from our provider's
 * code. By default it signs exactly as the MCP server does:
 *
 *   canonical query = Python urlencode(sorted params, safe='/', quote_via=quote, doseq=True)
 *                     (`/` kept, space %20, arrays sorted with Python's sort, booleans True/False)
 *   string to sign  = METHOD \n path + "/" \n canonical \n md5("")
 *   signature       = quote_plus(quote_plus(Base64(HMAC-SHA256(secret, string to sign))))
 *
 * Options play the other clients and mistakes: the signature encoded once (the
 * docs, the operator's SDK), the MD5 of the body instead of the empty string,
 * the operator SDK's raw `key=value` join (re-quoted by `requests` on the way
 * out), RFC 3986 encoding (`/` encoded too), a wrong secret, no signature at all.
 */
import { createHash, createHmac } from "node:crypto";

/** One query value; arrays go out as repeated keys. */
export type PyValue = string | number | boolean;

/** Credentials the emulator accepts by default. */
export const DEFAULT_KEYS = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret" } as const;

/** One request to sign and send. */
export interface SignedRequest {
  method: string;
  /** Full path with its prefix, e.g. /aicp/resource/template; sent as written. */
  path: string;
  /** Query parameters (null/undefined are left out, as the SDK drops None). */
  query?: Record<string, PyValue | PyValue[] | null | undefined>;
  /** Sent as JSON unless it is a string (sent as is). */
  body?: unknown;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `python` (MCP server, skills scripts; default), `raw` (the operator's SDK) or `rfc3986` (`/` encoded as well). */
  canonical?: "python" | "raw" | "rfc3986";
  /** `twice` (MCP server; default) or `once` (docs, SDK). */
  signatureEncoding?: "once" | "twice";
  /** What the MD5 line covers: `empty` (every public client; default) or `body`. */
  bodyHash?: "empty" | "body";
  /** Send the path with a trailing slash (the signed path always has one). */
  trailingSlash?: boolean;
  /** Leave out access_key_id and signature. */
  unsigned?: boolean;
}

/** The answer: status, headers, raw text and the parsed JSON (undefined when not JSON). */
export interface SignedResponse {
  status: number;
  headers: Headers;
  text: string;
  // Tests read arbitrary envelope fields; a loose type keeps them short.
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Python's `str()` of a value: booleans are True/False. */
function pyStr(v: PyValue): string {
  return typeof v === "boolean" ? (v ? "True" : "False") : String(v);
}

/** Python's `sorted()` of one list: numbers numerically, strings by code point; mixing them is a TypeError there too. */
function pySorted(values: readonly PyValue[]): PyValue[] {
  const kinds = new Set(values.map((v) => (typeof v === "string" ? "str" : "num")));
  if (kinds.size > 1) throw new TypeError("Python cannot sort a list mixing numbers and strings");
  return [...values].sort((a, b) => (typeof a === "string" ? (a < (b as string) ? -1 : a > (b as string) ? 1 : 0) : Number(a) - Number(b)));
}

/** Python's `urllib.parse.quote(text, safe)`: UTF-8 bytes, unreserved and `safe` characters kept, uppercase hex. */
export function pyQuote(text: string, safe = "/"): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const ch = String.fromCharCode(byte);
    const keep = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || "_.-~".includes(ch) || safe.includes(ch);
    out += keep && byte < 0x80 ? ch : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** Python's `quote_plus(text)`: quote with nothing safe, then spaces as '+'. */
export function pyQuotePlus(text: string): string {
  return pyQuote(text, " ").replace(/ /g, "+");
}

/**
 * What `requests` does to a URL it is given (`requote_uri`): characters outside
 * the unreserved and reserved sets are percent-encoded, `%XX` kept.
 */
export function requestsRequote(text: string): string {
  const kept = "!#$&'()*+,/:;=?@[]~-._";
  let out = "";
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const ch = String.fromCharCode(byte);
    if (ch === "%" && /^[0-9A-Fa-f]{2}$/.test(bytes.subarray(i + 1, i + 3).toString("latin1"))) out += ch;
    else if (byte < 0x80 && (/[A-Za-z0-9]/.test(ch) || kept.includes(ch))) out += ch;
    else out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** The sorted `[name, value]` pairs a Python client signs (access_key_id included unless unsigned). */
export function pyPairs(query: SignedRequest["query"], accessKeyId?: string): Array<[string, string]> {
  const params: Record<string, PyValue | PyValue[]> = {};
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params[k] = v;
  if (accessKeyId !== undefined) params.access_key_id = accessKeyId;
  const pairs: Array<[string, string]> = [];
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const v of Array.isArray(value) ? pySorted(value) : [value]) pairs.push([name, pyStr(v)]);
  }
  return pairs;
}

/** The canonical query the chosen client builds from sorted pairs. */
export function canonicalOf(pairs: ReadonlyArray<readonly [string, string]>, canonical: "python" | "raw" | "rfc3986"): string {
  const safe = canonical === "rfc3986" ? "" : "/";
  return pairs.map(([k, v]) => (canonical === "raw" ? `${k}=${v}` : `${pyQuote(k, safe)}=${pyQuote(v, safe)}`)).join("&");
}

/** Base64 HMAC-SHA256 of the string to sign. */
export function hmacBase64(secret: string, toSign: string): string {
  return createHmac("sha256", secret).update(toSign, "utf8").digest("base64");
}

/** Builds the URL path+query of a signed request and the body text, without sending it. */
export function buildSignedRequest(req: SignedRequest): { pathAndQuery: string; bodyText: string } {
  const bodyText = req.body === undefined ? "" : typeof req.body === "string" ? req.body : JSON.stringify(req.body);
  const canonical = req.canonical ?? "python";
  const sentPath = req.trailingSlash && !req.path.endsWith("/") ? req.path + "/" : req.path;
  if (req.unsigned) {
    const qs = canonicalOf(pyPairs(req.query), canonical);
    return { pathAndQuery: `${sentPath}${qs ? `?${qs}` : ""}`, bodyText };
  }
  const pairs = pyPairs(req.query, req.accessKeyId ?? DEFAULT_KEYS.accessKeyId);
  const qs = canonicalOf(pairs, canonical);
  const md5 = createHash("md5")
    .update(req.bodyHash === "body" ? bodyText : "", "utf8")
    .digest("hex");
  const signedPath = req.path.endsWith("/") ? req.path : req.path + "/";
  const sig = hmacBase64(req.secretAccessKey ?? DEFAULT_KEYS.secretAccessKey, `${req.method.toUpperCase()}\n${signedPath}\n${qs}\n${md5}`);
  const encoded = req.signatureEncoding === "once" ? pyQuotePlus(sig) : pyQuotePlus(pyQuotePlus(sig));
  const full = `${sentPath}?${qs}&signature=${encoded}`;
  return { pathAndQuery: canonical === "raw" ? requestsRequote(full) : full, bodyText };
}

/** Signs and sends one request to `baseUrl` (no prefix). */
export async function signedRequest(baseUrl: string, req: SignedRequest): Promise<SignedResponse> {
  const { pathAndQuery, bodyText } = buildSignedRequest(req);
  const res = await fetch(`${baseUrl}${pathAndQuery}`, {
    method: req.method,
    headers: { accept: "application/json", ...(bodyText ? { "content-type": "application/json" } : {}) },
    body: bodyText || undefined,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
