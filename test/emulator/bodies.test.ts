/**
 * Request bodies: the signature, and under the default
 * dialect tenancy too, are checked before a body is read, so a refused request
 * costs the emulator nothing however large a body it announces; a body over
 * the limit answers 413 with the envelope, never a reset connection.
 */
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { buildSignedRequest } from "../support/signed-request";
import { NS, ZONE, client } from "./client";

const MiB = 1024 * 1024;
const LIMIT = MiB;
const OTHER = { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" };
const create = `/aicp/notebooks/namespaces/${NS}/create`;

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ notebookReadyDelayMs: 0, credentials: [{ accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: NS }, OTHER] });
});
afterAll(() => emu.close());
afterEach(() => emu.setDialect({ signatureBody: "empty" }));

/** What a streamed request got: the answer, and how much of its body had been sent when the answer came. */
interface Streamed {
  status: number;
  json: { ret_code: number; message: string; data: unknown };
  sentAtAnswer: number;
  /** Body bytes written in all. */
  sent: number;
  announced: number;
  /** A failure of the connection (reset, closed early), before or after the answer. */
  error?: string;
}

/**
 * Sends `pathAndQuery` with a body of `announced` bytes declared in
 * Content-Length, written 64 KiB at a time with a pause between writes. Once
 * an answer arrives it stops writing, unless `finish` asks for the whole body
 * (then it resolves once the body is written or the connection failed). A
 * server that reads the whole body before answering shows as
 * `sentAtAnswer === announced`.
 */
function streamed(pathAndQuery: string, announced: number, finish = false): Promise<Streamed> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, " ");
    const out: Streamed = { status: 0, json: { ret_code: 0, message: "", data: null }, sentAtAnswer: -1, sent: 0, announced };
    let answered = false;
    let written = !finish;
    const done = () => answered && written && resolve(out);
    const req = request({
      host: "127.0.0.1",
      port: emu.port,
      method: "POST",
      path: pathAndQuery,
      headers: { "content-type": "application/json", "content-length": announced },
    });
    req.on("response", (res) => {
      out.status = res.statusCode ?? 0;
      out.sentAtAnswer = out.sent;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        out.json = JSON.parse(Buffer.concat(parts).toString("utf8"));
        answered = true;
        if (!finish) req.destroy();
        done();
      });
    });
    req.on("error", (e) => {
      if (req.destroyed && answered && !finish) return; // our own destroy
      out.error = e.message;
      answered = written = true;
      done();
    });
    req.on("finish", () => {
      written = true;
      done();
    });
    const write = (): void => {
      if (req.destroyed || (out.sentAtAnswer >= 0 && !finish)) return;
      if (out.sent >= announced) return void req.end();
      const part = chunk.subarray(0, Math.min(chunk.length, announced - out.sent));
      out.sent += part.length;
      req.write(part, () => setTimeout(write, 2));
    };
    write();
  });
}

/** Path and query of a request signed by `keys` (or unsigned). */
function signedPath(path: string, keys: { accessKeyId?: string; secretAccessKey?: string; unsigned?: boolean } = {}): string {
  return buildSignedRequest({ method: "POST", path, query: { zone: ZONE }, ...keys }).pathAndQuery;
}

/** The log entries of the requests made by `run`. */
async function logged<T>(run: () => Promise<T>): Promise<{ result: T; entries: ReturnType<Emulator["requests"]> }> {
  emu.clearRequests();
  const result = await run();
  return { result, entries: emu.requests().filter((e) => e.operation !== "admin") };
}

describe("refused before the body is read", () => {
  it("answers 40 unsigned, wrongly signed or foreign-namespace requests announcing 8 MiB each before their bodies are sent, keeping none of them", async () => {
    const unsigned = signedPath(create, { unsigned: true });
    const wrong = signedPath(create, { secretAccessKey: "wrong" });
    const foreign = signedPath(create, OTHER);
    const paths = Array.from({ length: 40 }, (_, i) => [unsigned, wrong, foreign][i % 3]!);
    const { result, entries } = await logged(() => Promise.all(paths.map((p) => streamed(p, 8 * MiB))));
    result.forEach((r, i) => {
      const expected = [
        [401, 1100],
        [401, 1102],
        [403, 1103],
      ][i % 3]!;
      expect(r.error, `request ${i}`).toBeUndefined();
      expect([r.status, r.json.ret_code], `request ${i}: ${r.json.message}`).toEqual(expected);
      expect(r.json.data).toBeNull();
      expect(r.sentAtAnswer, `request ${i} was answered only after its body`).toBeLessThan(r.announced);
    });
    expect(entries).toHaveLength(40);
    expect(entries.map((e) => e.bodyBytes)).toEqual(Array(40).fill(0));
  });

  it("under the body dialect, still refuses an unsigned request before its body, and one announcing more than the limit with 413", async () => {
    emu.setDialect({ signatureBody: "body" });
    const { result, entries } = await logged(async () => [
      await streamed(signedPath(create, { unsigned: true }), 8 * MiB),
      await streamed(signedPath(create, { secretAccessKey: "wrong" }), 8 * MiB),
    ]);
    expect(result.map((r) => [r.status, r.json.ret_code])).toEqual([
      [401, 1100],
      [413, 413],
    ]);
    for (const r of result) expect(r.sentAtAnswer).toBeLessThan(r.announced);
    expect(entries.map((e) => e.bodyBytes)).toEqual([0, 0]);
  });

  it("keeps the connection for a client that sends its whole body after an early answer: no reset, nothing kept", async () => {
    const { result, entries } = await logged(() => streamed(signedPath(create, { unsigned: true }), 4 * MiB, true));
    expect(result.error).toBeUndefined();
    expect([result.status, result.json.ret_code]).toEqual([401, 1100]);
    expect(result.sentAtAnswer).toBeLessThan(result.announced);
    expect(result.sent).toBe(result.announced);
    expect(entries.map((e) => e.bodyBytes)).toEqual([0]);
  });
});

describe("the body limit", () => {
  const notebook = (pip: string) => ({
    charge_mode: "elastic",
    duration: 3600,
    user_id: NS,
    namespace: NS,
    image: "jupyter/base:1",
    image_type: "official",
    name: "big",
    server_type: "jupyter",
    replica_specs: { specs: "sku-1" },
    pip,
  });

  it("answers a signed 2 MiB body with HTTP 413 and the envelope naming the limit", async () => {
    const { result: r, entries } = await logged(() => client(emu).post(`/notebooks/namespaces/${NS}/create`, notebook("x".repeat(2 * MiB))));
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ ret_code: 413, data: null, meta: { X_REQUEST_USER: NS } });
    expect(r.json.message).toContain(`${LIMIT} bytes (1 MiB)`);
    expect(entries.map((e) => [e.operation, e.status, e.bodyBytes])).toEqual([["createNotebook", 413, 0]]);
    expect(emu.listNotebooks().filter((n) => n.name === "big")).toEqual([]);
  });

  it("answers a 2 MiB body sent without a length (chunked) with 413 too, keeping at most the limit", async () => {
    const { pathAndQuery } = buildSignedRequest({ method: "POST", path: create, query: { zone: ZONE } });
    const text = JSON.stringify(notebook("y".repeat(2 * MiB)));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 256 * 1024) controller.enqueue(Buffer.from(text.slice(i, i + 256 * 1024)));
        controller.close();
      },
    });
    const { result: res, entries } = await logged(() => fetch(`${emu.url}${pathAndQuery}`, { method: "POST", body, duplex: "half" } as RequestInit));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ret_code: 413, data: null });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.bodyBytes).toBeGreaterThan(0);
    expect(entries[0]!.bodyBytes).toBeLessThanOrEqual(LIMIT);
  });

  it("accepts the largest legitimate body: a notebook create with long pip, conda and apt text under the limit", async () => {
    const long = "package-name==1.2.3\n".repeat(15_000); // 300 KB each
    const r = await client(emu).post(`/notebooks/namespaces/${NS}/create`, { ...notebook(long), name: "long-lists", conda: long, apt: long });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(emu.requests().at(-1)!.bodyBytes).toBeGreaterThan(900_000);
  });
});

describe("latency faults and bodies", () => {
  it("handles a create whose client gave up during the delay: its body was read before the delay", async () => {
    emu.clearRequests();
    emu.addFault({ kind: "latency", latencyMs: 300, operation: "createNotebook", count: 1 });
    const { pathAndQuery, bodyText } = buildSignedRequest({
      method: "POST",
      path: create,
      query: { zone: ZONE },
      body: {
        charge_mode: "elastic",
        duration: 3600,
        user_id: NS,
        namespace: NS,
        image: "jupyter/base:1",
        image_type: "official",
        name: "given-up",
        server_type: "jupyter",
        replica_specs: { specs: "sku-1" },
      },
    });
    const gaveUp = fetch(`${emu.url}${pathAndQuery}`, { method: "POST", body: bodyText, signal: AbortSignal.timeout(50) });
    await expect(gaveUp).rejects.toMatchObject({ name: "TimeoutError" });
    // The platform finishes what it received; poll (bounded) until the create is answered, to nobody.
    const answered = () => emu.requests().filter((e) => e.operation === "createNotebook");
    for (let i = 0; i < 300 && answered().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(answered().map((e) => e.status)).toEqual([200]);
    expect(emu.listNotebooks().filter((n) => n.name === "given-up")).toHaveLength(1);
  });
});
