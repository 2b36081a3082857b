/**
 * A signer written from the documented recipe (../shared/spec/platform-notes.md
 * §4), independent of `provider/`, so the conformance suite can prepare the
 * emulator through the platform's own API without going through the client
 * under test. It signs the way the MCP server does (Python `quote` with `/`
 * kept, arrays sorted and repeated, the MD5 of the empty string in the last
 * line), the convention of every public client.
 */
import { createHash, createHmac } from "node:crypto";

/** A query value as the public clients send it. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number>;

/** Python's `str()` of a scalar: booleans are `True`/`False`. */
export function pythonStr(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

/** Python's `urllib.parse.quote(value, safe="/")`: RFC 3986 unreserved characters and `/` stay as they are. */
export function pythonQuote(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, "/");
}

/** Python's `sorted()` of one list: numbers numerically, strings by code point. */
function pythonSorted(values: ReadonlyArray<string | number>): Array<string | number> {
  return [...values].sort((a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

/**
 * The canonical query of the MCP server's `get_signature`: keys sorted, each
 * array sorted and sent as repeated keys, `urlencode(..., safe='/', quote_via=quote, doseq=True)`.
 */
export function canonicalQuery(params: Readonly<Record<string, QueryValue>>): string {
  const parts: string[] = [];
  for (const key of Object.keys(params).sort()) {
    const value = params[key]!;
    const values = Array.isArray(value) ? pythonSorted(value as ReadonlyArray<string | number>) : [value as string | number | boolean];
    for (const v of values) parts.push(`${pythonQuote(key)}=${pythonQuote(pythonStr(v))}`);
  }
  return parts.join("&");
}

/** `METHOD\npath/\ncanonical query\nhex MD5(bodyLine)`; the path gets a trailing `/` as every client adds it. */
export function stringToSign(method: string, path: string, canonical: string, bodyLine = ""): string {
  const withSlash = path.endsWith("/") ? path : `${path}/`;
  return `${method}\n${withSlash}\n${canonical}\n${createHash("md5").update(bodyLine, "utf8").digest("hex")}`;
}

/** What a signed request needs. */
export interface SignedRequest {
  /** Base URL without a path prefix, e.g. the emulator's `url`. */
  baseUrl: string;
  /** Access key id, sent as the `access_key_id` query parameter. */
  accessKeyId: string;
  /** Secret access key: only the HMAC key, never sent. */
  secretAccessKey: string;
  /** HTTP method; it is also the first line of the string to sign. */
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Full path including the prefix, e.g. `/aicp/notebooks/namespaces/usr-x/create`. */
  path: string;
  /** Query parameters besides `access_key_id` and `signature` (e.g. `zone`). */
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as JSON. */
  body?: unknown;
}

/** The answer: HTTP status, raw text and the parsed JSON when it is JSON. */
export interface SignedResponse {
  /** HTTP status. */
  status: number;
  /** The body as received. */
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/**
 * Sends one request signed with the MD5 of the empty string in the last line
 * (all public clients); when that is refused for its signature (HTTP 401), once
 * more with the MD5 of the JSON body, the other convention the notes allow: a
 * write refused for its signature did nothing, so the retry cannot duplicate it.
 */
export async function signedRequest(request: SignedRequest): Promise<SignedResponse> {
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  let answer = await send(request, payload, "");
  if (answer.status === 401 && payload !== undefined) answer = await send(request, payload, payload);
  return answer;
}

async function send(request: SignedRequest, payload: string | undefined, bodyLine: string): Promise<SignedResponse> {
  const canonical = canonicalQuery({ ...(request.query ?? {}), access_key_id: request.accessKeyId });
  const digest = createHmac("sha256", request.secretAccessKey).update(stringToSign(request.method, request.path, canonical, bodyLine), "utf8").digest("base64");
  const url = `${request.baseUrl}${request.path}?${canonical}&signature=${encodeURIComponent(digest)}`;
  const response = await fetch(url, {
    method: request.method,
    headers: payload === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}
