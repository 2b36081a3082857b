/**
 * A minimal signed HTTP client for the emulator's own tests and for poking at
 * a running emulator by hand. It signs exactly as platform notes §4 describe,
 * with knobs for the variants the emulator must accept (signature encoded
 * twice, trailing slash) and for deliberately wrong requests.
 */
import { canonicalQuery, percentEncode, signature, sortedPairs, stringToSign, type QueryValue } from "../provider/client/signature";
import { DEFAULT_CREDENTIAL } from "./auth";

/** One raw request. */
export interface RawRequest {
  method: string;
  /** Full path including the prefix, already encoded, e.g. /qai/aicp/resource/template. */
  path: string;
  query?: Record<string, QueryValue | undefined>;
  /** Sent as JSON unless it is a string (sent as is). */
  body?: unknown;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Leave out access_key_id and signature. */
  unsigned?: boolean;
  /** Percent-encode the signature twice, as the platform's public client does. */
  encodeTwice?: boolean;
}

/** The answer: status, headers, raw text and the parsed JSON (undefined when not JSON). */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  // Tests read arbitrary envelope fields; a loose type keeps them short.
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Sends one signed request to `baseUrl` (no prefix). */
export async function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const bodyText = req.body === undefined ? "" : typeof req.body === "string" ? req.body : JSON.stringify(req.body);
  let qs: string;
  if (req.unsigned) {
    qs = canonicalQuery(sortedPairs(req.query ?? {}));
  } else {
    const pairs = sortedPairs({ ...req.query, access_key_id: req.accessKeyId ?? DEFAULT_CREDENTIAL.accessKeyId });
    const sig = signature(req.secretAccessKey ?? DEFAULT_CREDENTIAL.secretAccessKey, stringToSign(req.method, req.path, pairs, bodyText));
    const encoded = req.encodeTwice ? percentEncode(percentEncode(sig)) : percentEncode(sig);
    qs = `${canonicalQuery(pairs)}&signature=${encoded}`;
  }
  const res = await fetch(`${baseUrl}${req.path}${qs ? `?${qs}` : ""}`, {
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
