/**
 * The request signature against an independent computation: openssl's
 * HMAC-SHA256 and md5sum over the string to sign built by hand from platform
 * notes §4.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { canonicalQuery, md5Hex, percentEncode, signedQueryString, sortedPairs, stringToSign } from "../../provider/client/signature";

function opensslSignature(secret: string, text: string): string {
  return execFileSync("sh", ["-c", 'printf "%s" "$TEXT" | openssl dgst -sha256 -hmac "$KEY" -binary | base64'], {
    env: { ...process.env, TEXT: text, KEY: secret },
    encoding: "utf8",
  }).trim();
}

function shellMd5(text: string): string {
  return execFileSync("sh", ["-c", 'printf "%s" "$TEXT" | md5sum'], { env: { ...process.env, TEXT: text }, encoding: "utf8" }).split(" ")[0]!;
}

describe("signature", () => {
  it("sorts parameters by name and array values by value, as repeated keys", () => {
    expect(sortedPairs({ zone: "xb3", status: ["Running", "Pending"], access_key_id: "AK", limit: 10 })).toEqual([
      ["access_key_id", "AK"],
      ["limit", "10"],
      ["status", "Pending"],
      ["status", "Running"],
      ["zone", "xb3"],
    ]);
  });

  it("percent-encodes everything but unreserved characters", () => {
    expect(percentEncode("a b/c+d=e&f*~_.-")).toBe("a%20b%2Fc%2Bd%3De%26f%2A~_.-");
    expect(percentEncode("训练")).toBe("%E8%AE%AD%E7%BB%83");
  });

  it("hashes the body with MD5 as md5sum does", () => {
    const body = JSON.stringify({ name: "nb", replica_specs: { replicas: 1 } });
    expect(md5Hex(body)).toBe(shellMd5(body));
    expect(md5Hex("")).toBe("d41d8cd98f00b204e9800998ecf8427e");
  });

  it("builds the string to sign with a trailing slash on the path", () => {
    const pairs = sortedPairs({ access_key_id: "AK", limit: 10 });
    expect(stringToSign("get", "/qai/aicp/resource/template", pairs, "")).toBe(
      "GET\n/qai/aicp/resource/template/\naccess_key_id=AK&limit=10\nd41d8cd98f00b204e9800998ecf8427e",
    );
  });

  it("matches openssl for a GET and a POST", () => {
    const secret = "emulator-secret";
    for (const [method, path, query, body] of [
      ["GET", "/qai/aicp/resource/template", { limit: 10, spec_type: ["only_cpu", "common"] }, ""],
      ["POST", "/qai/aicp/notebooks/namespaces/usr-abc/create", {}, JSON.stringify({ name: "x", duration: 3600 })],
    ] as const) {
      const signed = signedQueryString({ method, path, query, body, accessKeyId: "AKIDEMULATOR", secretAccessKey: secret });
      const params = new URLSearchParams(signed);
      const expectedPairs = sortedPairs({ ...query, access_key_id: "AKIDEMULATOR" });
      const text = `${method}\n${path}/\n${canonicalQuery(expectedPairs)}\n${shellMd5(body)}`;
      expect(params.get("signature")).toBe(opensslSignature(secret, text));
      expect(signed.startsWith(canonicalQuery(expectedPairs) + "&signature=")).toBe(true);
    }
  });
});
