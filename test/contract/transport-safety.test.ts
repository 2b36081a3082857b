/**
 * Transport safety: TLS certificates are verified (a self-signed server is
 * refused), and plain http to a host that is not loopback needs an explicit
 * opt-in before any request is made.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import { resolveSettings } from "../../client/config";

describe("transport safety", () => {
  let server: Server;
  let url: string;
  let answered = 0;
  const dir = mkdtempSync(join(tmpdir(), "aicp-tls-"));

  beforeAll(async () => {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      { stdio: "ignore" },
    );
    server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (_req, res) => {
      answered++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ret_code: 0, message: "success", data: [], counts: 0, meta: {} }));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a server whose certificate it cannot verify", async () => {
    const client = new AicpClient({ baseUrl: url, zone: "xb3", credentials: { accessKeyId: "AK", secretAccessKey: "SK" }, maxAttempts: 1 });
    const error = (await client.listTemplates().catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.code).toBe("AICP_NETWORK");
    expect(error.message).toMatch(/certificate/i);
    expect(answered).toBe(0);
    await client.close();
  });

  it("refuses plain http to a host that is not loopback unless asked, before any request", () => {
    expect(() => resolveSettings(() => undefined, { AICP_BASE_URL: "http://10.1.2.3:8080" })).toThrow(/plain http .* not loopback/);
    expect(resolveSettings((k) => ({ "aicp:baseUrl": "http://10.1.2.3:8080", "aicp:allowInsecureHttp": "true" })[k], {}).baseUrl).toBe("http://10.1.2.3:8080");
    expect(resolveSettings(() => undefined, { AICP_BASE_URL: "http://127.0.0.1:9" }).baseUrl).toBe("http://127.0.0.1:9");
  });
});
