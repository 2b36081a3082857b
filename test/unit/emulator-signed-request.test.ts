/**
 * The test-only signer (test/support/signed-request.ts) builds, byte for byte,
 * the URLs the published Python clients put on the wire for the same call
 * (test/fixtures/signature-vectors.json, produced by the clients themselves
 * through test/conformance/make_vectors.py).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PyValue, buildSignedRequest } from "../support/signed-request";

const fixture = JSON.parse(readFileSync(join(__dirname, "..", "fixtures", "signature-vectors.json"), "utf8")) as {
  vectors: Array<{
    id: string;
    client: "coreshub-mcp-server" | "qingcloud-sdk";
    method: string;
    path: string;
    params: Record<string, PyValue | PyValue[]>;
    access_key_id: string;
    secret_access_key: string;
    url: string;
  }>;
};

describe("test signer", () => {
  it.each(fixture.vectors.map((v) => [v.id, v.client, v] as const))("%s: signs as the %s client does", (_id, client, v) => {
    const { pathAndQuery } = buildSignedRequest({
      method: v.method,
      path: v.path,
      query: v.params,
      accessKeyId: v.access_key_id,
      secretAccessKey: v.secret_access_key,
      canonical: client === "coreshub-mcp-server" ? "python" : "raw",
      signatureEncoding: client === "coreshub-mcp-server" ? "twice" : "once",
    });
    expect(pathAndQuery).toBe(v.url);
  });
});
