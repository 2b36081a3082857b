/**
 * The test-only signer (test/support/signed-request.ts) builds, byte for byte,
 * the URLs the published Python clients put on the wire for the same call
 * (test/fixtures/signatures, produced by the clients themselves).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PyValue, buildSignedRequest } from "../support/signed-request";

const fixture = JSON.parse(readFileSync(join(__dirname, "..", "fixtures", "signatures", "python-clients.json"), "utf8")) as {
  accessKeyId: string;
  secretAccessKey: string;
  vectors: Array<{ client: "mcp" | "sdk"; method: string; path: string; params: Record<string, PyValue | PyValue[]>; url: string }>;
};

describe("test signer", () => {
  it.each(fixture.vectors.map((v, i) => [i, v.client, v] as const))("vector %i: signs as the %s client does", (_i, client, v) => {
    const { pathAndQuery } = buildSignedRequest({
      method: v.method,
      path: v.path,
      query: v.params,
      accessKeyId: fixture.accessKeyId,
      secretAccessKey: fixture.secretAccessKey,
      canonical: client === "mcp" ? "python" : "raw",
      signatureEncoding: client === "mcp" ? "twice" : "once",
    });
    expect(pathAndQuery).toBe(v.url);
  });
});
