/**
 * The emulator's signature verifier against independent computations: the
 * string to sign written out by hand from platform-api B4, signed with
 * openssl's HMAC-SHA256 and hashed with md5sum in a shell; and requests signed
 * by the platform's published Python clients (test/fixtures/signature-vectors.json,
 * written by test/conformance/make_vectors.py).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../emulator/query";
import { AUTH_CODES, type Credential, verifySignature } from "../../emulator/signature";
import { md5sumHex, opensslHmacBase64 } from "../support/shell-crypto";

const KEY: Credential = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" };

const openssl = opensslHmacBase64;
const md5sum = md5sumHex;

const MD5_EMPTY = md5sum("");

/** Verifies `pathAndQuery` as received, with `body`, under the dialect's body convention, against `keys`. */
function verify(method: string, pathAndQuery: string, body = "", signatureBody: "empty" | "body" = "empty", keys: readonly Credential[] = [KEY]) {
  const q = pathAndQuery.indexOf("?");
  return verifySignature(
    keys,
    { method, rawPath: pathAndQuery.slice(0, q), pairs: parseQuery(pathAndQuery.slice(q + 1)), body: Buffer.from(body) },
    signatureBody,
  );
}

/** The ApiError ret_code `run` throws. */
function retCodeOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (e) {
    return (e as { retCode?: number }).retCode;
  }
  return undefined;
}

const once = (sig: string) => encodeURIComponent(sig);
const twice = (sig: string) => encodeURIComponent(encodeURIComponent(sig));

describe("emulator signature verifier: canonical forms", () => {
  const path = "/aicp/resource/template";
  it("accepts RFC 3986 percent-encoding ('/' as %2F)", () => {
    const canonical = "access_key_id=AKIDEMULATOR&gpu_name=a%2Fb%20c&zone=xb3";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    expect(verify("GET", `${path}?${canonical}&signature=${once(sig)}`).variant).toEqual({
      canonical: "rfc3986",
      bodyHash: "empty",
      signatureEncoding: "once",
    });
  });

  it("accepts Python quote with '/' kept, the signature encoded twice (the MCP server)", () => {
    const canonical = "access_key_id=AKIDEMULATOR&gpu_name=a/b%20c&zone=xb3";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    expect(verify("GET", `${path}?${canonical}&signature=${twice(sig)}`).variant).toEqual({
      canonical: "python",
      bodyHash: "empty",
      signatureEncoding: "twice",
    });
  });

  it("sorts names by code point, as Python's sorted does (an emoji after U+FF01), whatever order they arrive in", () => {
    const canonical = "access_key_id=AKIDEMULATOR&zone=xb3&%EF%BC%81=a&%F0%9F%98%80=b";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    const received = "%F0%9F%98%80=b&zone=xb3&access_key_id=AKIDEMULATOR&%EF%BC%81=a";
    expect(verify("GET", `${path}?${received}&signature=${twice(sig)}`).variant).toEqual({
      canonical: "rfc3986",
      bodyHash: "empty",
      signatureEncoding: "twice",
    });
  });

  it("accepts the raw key=value join, re-quoted on the wire (the operator's SDK)", () => {
    const signed = "access_key_id=AKIDEMULATOR&gpu_name=a/b c&reverse=False&zone=xb3";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${signed}\n${MD5_EMPTY}`);
    const sent = "access_key_id=AKIDEMULATOR&gpu_name=a/b%20c&reverse=False&zone=xb3";
    expect(verify("GET", `${path}?${sent}&signature=${once(sig)}`).variant).toEqual({ canonical: "raw", bodyHash: "empty", signatureEncoding: "once" });
  });

  it("tries the values of a repeated key as received, sorted as text and sorted as numbers", () => {
    const sent = "access_key_id=AKIDEMULATOR&template_ids=1001&template_ids=999&zone=xb3";
    for (const signedIds of ["template_ids=1001&template_ids=999", "template_ids=999&template_ids=1001"]) {
      const canonical = `access_key_id=AKIDEMULATOR&${signedIds}&zone=xb3`;
      const sig = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
      expect(verify("GET", `${path}?${sent}&signature=${once(sig)}`).credential.userId, signedIds).toBe("usr-emulator");
    }
    const words = "access_key_id=AKIDEMULATOR&status=Running&status=Pending&zone=xb3";
    const sortedWords = "access_key_id=AKIDEMULATOR&status=Pending&status=Running&zone=xb3";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${sortedWords}\n${MD5_EMPTY}`);
    expect(verify("GET", `${path}?${words}&signature=${once(sig)}`).variant.canonical).toBe("rfc3986");
  });

  it("sorts parameter names whatever order they arrive in", () => {
    const canonical = "access_key_id=AKIDEMULATOR&limit=1&zone=xb3";
    const sig = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    expect(verify("GET", `${path}?zone=xb3&limit=1&access_key_id=AKIDEMULATOR&signature=${once(sig)}`).credential.accessKeyId).toBe("AKIDEMULATOR");
  });
});

describe("emulator signature verifier: path and signature encoding", () => {
  const canonical = "access_key_id=AKIDEMULATOR&zone=xb3";
  const sig = openssl("emulator-secret", `GET\n/aicp/resource/template/\n${canonical}\n${MD5_EMPTY}`);

  it("accepts the path sent with or without its trailing slash (the signed path has one)", () => {
    expect(verify("GET", `/aicp/resource/template?${canonical}&signature=${once(sig)}`).credential.userId).toBe("usr-emulator");
    expect(verify("GET", `/aicp/resource/template/?${canonical}&signature=${once(sig)}`).credential.userId).toBe("usr-emulator");
  });

  it("accepts the signature percent-encoded once or twice and reports which", () => {
    expect(verify("GET", `/aicp/resource/template?${canonical}&signature=${once(sig)}`).variant.signatureEncoding).toBe("once");
    expect(verify("GET", `/aicp/resource/template?${canonical}&signature=${twice(sig)}`).variant.signatureEncoding).toBe("twice");
  });

  it("refuses a signature of another path", () => {
    const other = openssl("emulator-secret", `GET\n/qai/aicp/resource/template/\n${canonical}\n${MD5_EMPTY}`);
    expect(retCodeOf(() => verify("GET", `/aicp/resource/template?${canonical}&signature=${once(other)}`))).toBe(AUTH_CODES.mismatch);
  });
});

describe("emulator signature verifier: the MD5 line of a write", () => {
  const path = "/aicp/resource/resource_group";
  const canonical = "access_key_id=AKIDEMULATOR&zone=xb3";
  const body = '{"name":"team-a","description":"","sku_id":"s","pod_type":["job"],"customize_enable":1}';
  const signedEmpty = openssl("emulator-secret", `POST\n${path}/\n${canonical}\n${MD5_EMPTY}`);
  const signedBody = openssl("emulator-secret", `POST\n${path}/\n${canonical}\n${md5sum(body)}`);
  const url = (sig: string) => `${path}?${canonical}&signature=${once(sig)}`;

  it("under 'empty' accepts MD5 of the empty string and refuses MD5 of the body", () => {
    expect(verify("POST", url(signedEmpty), body, "empty").variant.bodyHash).toBe("empty");
    expect(retCodeOf(() => verify("POST", url(signedBody), body, "empty"))).toBe(AUTH_CODES.mismatch);
  });

  it("under 'body' accepts MD5 of the body and refuses MD5 of the empty string", () => {
    expect(verify("POST", url(signedBody), body, "body").variant.bodyHash).toBe("body");
    expect(retCodeOf(() => verify("POST", url(signedEmpty), body, "body"))).toBe(AUTH_CODES.mismatch);
  });

  it("gives a request without a body MD5 of the empty string under both", () => {
    const sig = openssl("emulator-secret", `GET\n/aicp/resource/template/\n${canonical}\n${MD5_EMPTY}`);
    for (const convention of ["empty", "body"] as const) {
      expect(verify("GET", `/aicp/resource/template?${canonical}&signature=${once(sig)}`, "", convention).variant.bodyHash).toBe("empty");
    }
  });
});

describe("emulator signature verifier: refusals", () => {
  const path = "/aicp/resource/template";
  const canonical = "access_key_id=AKIDEMULATOR&zone=xb3";

  it("refuses a wrong secret and a query changed after signing with 1102", () => {
    const wrong = openssl("not-the-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    expect(retCodeOf(() => verify("GET", `${path}?${canonical}&signature=${once(wrong)}`))).toBe(AUTH_CODES.mismatch);
    const right = openssl("emulator-secret", `GET\n${path}/\n${canonical}\n${MD5_EMPTY}`);
    expect(retCodeOf(() => verify("GET", `${path}?access_key_id=AKIDEMULATOR&zone=xb2&signature=${once(right)}`))).toBe(AUTH_CODES.mismatch);
    expect(retCodeOf(() => verify("GET", `${path}?${canonical}&limit=5&signature=${once(right)}`))).toBe(AUTH_CODES.mismatch);
  });

  it("refuses a missing signature with 1100 and an unknown key with 1101", () => {
    expect(retCodeOf(() => verify("GET", `${path}?${canonical}`))).toBe(AUTH_CODES.missing);
    expect(retCodeOf(() => verify("GET", `${path}?access_key_id=AKIDNOBODY&signature=abc`))).toBe(AUTH_CODES.unknownKey);
  });
});

describe("emulator signature verifier: requests signed by the published Python clients", () => {
  const fixture = JSON.parse(readFileSync(join(__dirname, "..", "fixtures", "signature-vectors.json"), "utf8")) as {
    vectors: Array<{
      id: string;
      client: "coreshub-mcp-server" | "qingcloud-sdk";
      method: string;
      path: string;
      access_key_id: string;
      secret_access_key: string;
      url: string;
    }>;
  };
  // Every key the vectors were signed with, as the emulator would be configured with them.
  const keys: Credential[] = [
    ...new Map(
      fixture.vectors.map((v) => [v.access_key_id, { accessKeyId: v.access_key_id, secretAccessKey: v.secret_access_key, userId: "usr-emulator" }]),
    ).values(),
  ];

  it.each(fixture.vectors.map((v) => [v.id, v] as const))("%s is accepted", (_id, v) => {
    const mcp = v.client === "coreshub-mcp-server";
    const { credential, variant } = verify(v.method, v.url, "", "empty", keys);
    expect(credential.accessKeyId).toBe(v.access_key_id);
    expect(variant.bodyHash).toBe("empty");
    expect(variant.signatureEncoding).toBe(mcp ? "twice" : "once");
    // Where the client's form differs from RFC 3986, the client's form must be the one that matched:
    // Python's quote differs only by a '/', the raw join by any character RFC 3986 would encode.
    const values = v.url
      .split("?")[1]!
      .replace(/&signature=.*$/, "")
      .split("&")
      .map((p) => decodeURIComponent(p.split("=")[1]!));
    if (mcp && values.some((x) => x.includes("/"))) expect(variant.canonical).toBe("python");
    if (!mcp && values.some((x) => /[^A-Za-z0-9_.~-]/.test(x))) expect(variant.canonical).toBe("raw");
  });
});
