/**
 * Answers a real platform, or something in front of it, may give that the
 * emulator's dialects do not produce: a list with no data, an error page that
 * echoes the signed URL, a server list with holes. Served by a stub over real
 * HTTP; each answer must leave the client loud, never silently wrong.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import { withoutServerPasswords } from "../../provider/secrets";

describe("hostile answers", () => {
  let server: Server;
  let url: string;
  /** What the stub answers: status, content type, and a body built from the request URL; "drop" cuts the connection. */
  let answer: { status: number; type: string; body: (requestUrl: string) => string; date?: string };
  /** Answers used before `answer`, one per request. */
  let queue: Array<typeof answer | "drop"> = [];
  let received = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      received++;
      const next = queue.shift() ?? answer;
      if (next === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(next.status, { "content-type": next.type, ...(next.date ? { date: next.date } : {}) });
      res.end(next.body(req.url ?? ""));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server?.close());

  const client = () =>
    new AicpClient({
      baseUrl: url,
      pathPrefix: "/aicp",
      zone: "xb3",
      credentials: { accessKeyId: "AKIDSTUB", secretAccessKey: "stub-secret" },
      maxAttempts: 1,
    });

  it("fails a list that answers success without data, instead of reading it as empty (which would make live notebooks look gone)", async () => {
    answer = { status: 200, type: "application/json", body: () => JSON.stringify({ ret_code: 0, message: "success", data: null, counts: 0 }) };
    const c = client();
    const error = (await c.listAllNotebooks("usr-x").catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.code).toBe("AICP_MALFORMED");
    expect(await c.findNotebook("usr-x", "nb-1").catch((e: unknown) => (e as AicpError).code)).toBe("AICP_MALFORMED");
    await c.close();
  });

  it("never quotes a signed URL that an error page echoes", async () => {
    answer = { status: 200, type: "text/html", body: (requestUrl) => `<html><body>Blocked: ${requestUrl}</body></html>` };
    const c = client();
    const error = (await c.listTemplates({ limit: 1 }).catch((e: unknown) => e)) as AicpError;
    expect(error.code).toBe("AICP_MALFORMED");
    expect(error.message).toContain("Blocked: /aicp/resource/template?");
    expect(error.message).toContain("signature=<redacted>");
    expect(error.message).not.toMatch(/signature=(?!<redacted>)/);
    expect(error.message).not.toContain("AKIDSTUB");
    await c.close();
  });

  it("reports a create as possibly executed when the retry under the other signature convention loses its answer", async () => {
    const refused = {
      status: 401,
      type: "application/json",
      body: () => JSON.stringify({ ret_code: 1102, message: "signature does not match", data: null, counts: 0 }),
    };
    queue = [refused, "drop"];
    received = 0;
    const c = new AicpClient({ baseUrl: url, pathPrefix: "/aicp", zone: "xb3", credentials: { accessKeyId: "AKIDSTUB", secretAccessKey: "stub-secret" } });
    const body = {
      charge_mode: "elastic" as const,
      duration: 3600,
      user_id: "usr-x",
      namespace: "usr-x",
      image: "jupyter:1",
      image_type: "official" as const,
      name: "lost",
      server_type: "jupyter" as const,
      replica_specs: { specs: "sku-1" },
    };
    const error = (await c.createNotebook(body).catch((e: unknown) => e)) as AicpError;
    // Not "check your keys": the second create may be running, and the provider must reconcile.
    expect(error.code).toBe("AICP_NETWORK");
    expect(error.outcomeUnknown).toBe(true);
    expect(received).toBe(2);
    await c.close();
  });

  it("learns the zone against the platform's clock, not a skewed local one", async () => {
    // The platform's clock runs 15 minutes ahead and it writes bare times in UTC+8.
    const platformNow = Date.now() + 15 * 60_000;
    const bare = new Date(platformNow + 8 * 3_600_000).toISOString().slice(0, 19);
    answer = {
      status: 200,
      type: "application/json",
      date: new Date(platformNow).toUTCString(),
      body: () =>
        JSON.stringify({ ret_code: 0, message: "success", data: [{ uuid: "nb-skew", name: "skew", status: "Pending", created_at: bare }], counts: 0 }),
    };
    const c = client();
    const body = {
      charge_mode: "elastic" as const,
      duration: 3600,
      user_id: "usr-x",
      namespace: "usr-x",
      image: "jupyter:1",
      image_type: "official" as const,
      name: "skew",
      server_type: "jupyter" as const,
      replica_specs: { specs: "sku-1" },
    };
    await c.createNotebook(body);
    expect(c.timeZone.offset).toBe(480);
    await c.close();
  });

  it("keeps server entries that are not objects and strips passwords from the others", () => {
    const servers = [null, { server_name: "jupyter", password: "s3cret" }] as unknown as Array<{ password?: string }>;
    expect(withoutServerPasswords(servers)).toEqual([null, { server_name: "jupyter" }]);
  });
});
