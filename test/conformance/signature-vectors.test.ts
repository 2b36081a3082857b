/**
 * Checks test/fixtures/signature-vectors.json, the signed query strings the
 * platform's published clients produced (test/conformance/make_vectors.py), by
 * recomputing each one independently: the canonical query is rebuilt from the
 * vector's inputs with the recipe of docs/platform-api.md B4 (each
 * client's own form), the string to sign from that, and the HMAC-SHA256 with
 * `openssl dgst -sha256 -hmac` in a shell, so neither Node's crypto nor any
 * signer of this repository is the judge. A vector that does not recompute is
 * a wrong fixture or a wrong reading of the recipe; both must be fixed before
 * anyone builds on it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

type ClientName = "coreshub-mcp-server" | "qingcloud-sdk";
/** A parameter value as the vectors' inputs hold it (JSON of the Python values). */
type QueryValue = string | number | boolean | Array<string | number>;

/** One vector of the fixture. */
interface Vector {
  id: string;
  client: ClientName;
  function: string;
  features: string[];
  method: string;
  path: string;
  params: Record<string, QueryValue>;
  access_key_id: string;
  secret_access_key: string;
  signed_query: string;
}

const fixture = JSON.parse(readFileSync(join(__dirname, "..", "fixtures", "signature-vectors.json"), "utf8")) as {
  clients: Record<string, string>;
  vectors: Vector[];
};

const NO_OPENSSL = "openssl is not on PATH: this test recomputes the vectors with `openssl dgst`. Install it (Debian: apt-get install openssl).";

function openssl(args: string, input: string, env: Record<string, string> = {}): string {
  // The string to sign and the key travel in environment variables, so no shell quoting can alter them.
  return execFileSync("bash", ["-c", `printf '%s' "$AICP_VECTOR_INPUT" | openssl ${args}`], {
    env: { ...process.env, AICP_VECTOR_INPUT: input, ...env },
    encoding: "utf8",
  }).trim();
}

function hasOpenssl(): boolean {
  try {
    execFileSync("bash", ["-c", "command -v openssl"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Python's `sorted()` of one list (numbers numerically). */
function pySorted(values: ReadonlyArray<string | number>): Array<string | number> {
  return [...values].sort((a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

/** Python's `str()` of a scalar: booleans are True/False. */
function pythonStr(value: string | number | boolean): string {
  return typeof value === "boolean" ? (value ? "True" : "False") : String(value);
}

/** Python's `urllib.parse.quote(text, safe="/")`: unreserved characters (RFC 3986) and `/` stay, UTF-8 bytes are %XX. */
function pythonQuote(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, "/");
}

/**
 * Both canonical forms: sorted keys, each array sorted (Python's sort) and sent
 * as repeated keys, values as Python's str(). The MCP server quotes keys and
 * values (`urlencode(..., safe='/', quote_via=quote, doseq=True)`); the SDK
 * joins them as they are.
 */
function canonical(params: Readonly<Record<string, QueryValue>>, client: ClientName): string {
  const quote = client === "coreshub-mcp-server" ? pythonQuote : (text: string) => text;
  const parts: string[] = [];
  for (const key of Object.keys(params).sort()) {
    const value = params[key]!;
    const values = Array.isArray(value) ? pySorted(value) : [value];
    for (const v of values) parts.push(`${quote(key)}=${quote(pythonStr(v))}`);
  }
  return parts.join("&");
}

let md5OfEmpty = "";

beforeAll(() => {
  if (!hasOpenssl()) return;
  md5OfEmpty = openssl("dgst -md5 -r", "").split(" ")[0]!;
});

describe("signature vectors of the published clients (test/fixtures/signature-vectors.json)", () => {
  it("come from the pinned clients and cover every awkward input", () => {
    expect(fixture.clients).toEqual({ "coreshub-mcp-server": "0.3.0", "qingcloud-sdk": "1.2.16" });
    const covered = (client: ClientName) => new Set(fixture.vectors.filter((v) => v.client === client).flatMap((v) => v.features));
    for (const client of ["coreshub-mcp-server", "qingcloud-sdk"] as const) {
      for (const feature of ["get", "post", "slash-in-value", "spaces", "unicode", "integer-array", "boolean-true", "boolean-false", "empty-value"]) {
        expect(covered(client).has(feature), `${client} vectors cover ${feature}`).toBe(true);
      }
    }
  });

  it("openssl is available", () => {
    expect(hasOpenssl(), NO_OPENSSL).toBe(true);
    expect(md5OfEmpty).toBe("d41d8cd98f00b204e9800998ecf8427e");
  });

  it.each(fixture.vectors.map((v) => [v.id, v] as const))("%s recomputes", (_id, vector) => {
    if (!hasOpenssl()) throw new Error(NO_OPENSSL);
    const cut = vector.signed_query.lastIndexOf("&signature=");
    expect(cut, "the signed query ends with &signature=...").toBeGreaterThan(0);
    const signedCanonical = vector.signed_query.slice(0, cut);
    const encoded = vector.signed_query.slice(cut + "&signature=".length);

    // 1. The canonical query, rebuilt from the inputs in the client's own form.
    const params = { ...vector.params, access_key_id: vector.access_key_id };
    expect(canonical(params, vector.client)).toBe(signedCanonical);

    // 2. The signature: percent-encoded twice by the MCP server, once by the SDK.
    const times = vector.client === "coreshub-mcp-server" ? 2 : 1;
    let signature = encoded;
    for (let i = 0; i < times; i++) signature = decodeURIComponent(signature);
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    if (times === 2) expect(decodeURIComponent(encoded), "encoded exactly twice").not.toMatch(/^[A-Za-z0-9+/]{43}=$/);

    // 3. The string to sign, from the documented recipe, and its HMAC by openssl.
    const path = vector.path.endsWith("/") ? vector.path : `${vector.path}/`;
    const stringToSign = `${vector.method}\n${path}\n${signedCanonical}\n${md5OfEmpty}`;
    const expected = openssl('dgst -sha256 -hmac "$AICP_VECTOR_KEY" -binary | openssl base64 -A', stringToSign, { AICP_VECTOR_KEY: vector.secret_access_key });
    expect(signature).toBe(expected);
  });
});
