/**
 * The client's request signature against independent computations: Python's
 * own `urllib.parse` (what the platform's public clients encode with,
 * platform-api B4), openssl's HMAC-SHA256 and md5sum over a string to sign
 * built by hand from the notes.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { md5Hex, percentEncode, signedQueryString, sortedPairs, stringToSign } from "../../client/signature";
import { md5sumHex, opensslHmacBase64 } from "../support/shell-crypto";

const opensslSignature = opensslHmacBase64;
const shellMd5 = md5sumHex;

/** The canonical query as the MCP server builds it: Python's urlencode over sorted params (needs python3 on PATH). */
function pythonCanonical(params: Record<string, unknown>): string {
  const script = [
    "import json, sys",
    "from urllib.parse import urlencode, quote",
    "p = json.loads(sys.argv[1])",
    "s = {k: (sorted(v) if isinstance(v, list) else v) for k, v in sorted(p.items())}",
    "print(urlencode(s, safe='/', quote_via=quote, doseq=True))",
  ].join("\n");
  try {
    return execFileSync("python3", ["-c", script, JSON.stringify(params)], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new Error(`this test needs python3 on PATH (apt-get install python3): ${(error as Error).message}`);
  }
}

describe("signature", () => {
  it("builds the canonical query exactly as Python's urlencode(safe='/', quote_via=quote) does", () => {
    const params = {
      access_key_id: "AKID",
      zone: "xb3",
      image: "registry.example.com/team/jupyter:1.0",
      name: "a b+c&d=e*f~g_h.i-j!k'l(m)",
      start_at: "2026-11-22 08:00:00",
      train_name: "训练任务",
      template_ids: [1001, 999, 10],
      status: ["Running", "Pending"],
    };
    const ours = sortedPairs(params)
      .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
      .join("&");
    expect(ours).toBe(pythonCanonical(params));
    // The two facts that differ from RFC 3986 encoding with string sorting:
    expect(ours).toContain("image=registry.example.com/team/jupyter%3A1.0");
    expect(ours).toContain("template_ids=10&template_ids=999&template_ids=1001");
  });

  it("sorts names and values by code point, as Python's sorted does (UTF-16 order puts an emoji before U+FF01)", () => {
    expect(sortedPairs({ "\uff01": "a", "\u{1F600}": "b", k: ["\u{1F600}", "\uff01", "z"] })).toEqual([
      ["k", "z"],
      ["k", "\uff01"],
      ["k", "\u{1F600}"],
      ["\uff01", "a"],
      ["\u{1F600}", "b"],
    ]);
  });

  it("leaves out parameters without a value, and sorts a list of numbers and text as text", () => {
    expect(sortedPairs({ a: undefined, b: "1", c: [10, "x", 9] })).toEqual([
      ["b", "1"],
      ["c", "10"],
      ["c", "9"],
      ["c", "x"],
    ]);
  });

  it("hashes the body with MD5 as md5sum does", () => {
    const body = JSON.stringify({ name: "nb", replica_specs: { replicas: 1 } });
    expect(md5Hex(body)).toBe(shellMd5(body));
    expect(md5Hex("")).toBe("d41d8cd98f00b204e9800998ecf8427e");
  });

  it("builds the string to sign with a trailing slash on the path", () => {
    const pairs = sortedPairs({ access_key_id: "AK", limit: 10 });
    expect(stringToSign("get", "/aicp/resource/template", pairs, "")).toBe(
      "GET\n/aicp/resource/template/\naccess_key_id=AK&limit=10\nd41d8cd98f00b204e9800998ecf8427e",
    );
  });

  it("matches openssl for a GET, and for a POST under each body convention", () => {
    const secret = "emulator-secret";
    const post = JSON.stringify({ uuids: ["nb-1"], save_image: false });
    for (const [method, path, query, body, bodyHash] of [
      ["GET", "/aicp/resource/template", { limit: 10, zone: "xb3", spec_type: ["only_cpu", "common"] }, "", "empty"],
      ["POST", "/aicp/notebooks/namespaces/usr-abc/notebooks/stop", { zone: "xb3" }, post, "empty"],
      ["POST", "/aicp/notebooks/namespaces/usr-abc/notebooks/stop", { zone: "xb3" }, post, "body"],
    ] as const) {
      const signed = signedQueryString({ method, path, query, body, bodyHash, accessKeyId: "AKIDEMULATOR", secretAccessKey: secret });
      const canonical = pythonCanonical({ ...query, access_key_id: "AKIDEMULATOR" });
      const text = `${method}\n${path}/\n${canonical}\n${shellMd5(bodyHash === "body" ? body : "")}`;
      expect(signed).toBe(`${canonical}&signature=${encodeURIComponent(opensslSignature(secret, text))}`);
    }
  });
});
