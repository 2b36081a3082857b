/** Fault injection: every kind observable over real HTTP, switched on without a restart. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { buildSignedRequest } from "../support/signed-request";
import { ZONE, admin, client } from "./client";

let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({ notebookReadyDelayMs: 50 });
  api = client(emu);
});
afterAll(() => emu.close());
afterEach(() => emu.clearFaults());

const templates = () => api.get("/resource/template", { limit: 1 });
const groups = () => api.get("/resource/resource_group");

/** The request `templates()` sends, by a client that gives up after `timeoutMs` (fetch aborts with a TimeoutError). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function templatesWithin(timeoutMs: number): Promise<{ status: number; json: any }> {
  const { pathAndQuery } = buildSignedRequest({ method: "GET", path: "/aicp/resource/template", query: { zone: ZONE, limit: 1 } });
  const res = await fetch(emu.url + pathAndQuery, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, json: await res.json() };
}

describe("faults", () => {
  it("latency holds the answer past a shorter client timeout, answers normally within a longer one, and a counted one is spent", async () => {
    // No assertion on elapsed time: a client whose timeout is shorter than the injected latency
    // cannot get the answer (its timer expires before the emulator's delay does), one with a longer timeout can.
    emu.addFault({ kind: "latency", latencyMs: 500, operation: "listTemplates" });
    await expect(templatesWithin(50)).rejects.toMatchObject({ name: "TimeoutError" });
    const r = await templatesWithin(20_000);
    expect(r.status).toBe(200);
    expect(r.json.ret_code).toBe(0);
    expect(r.json.data).toHaveLength(1);
    emu.clearFaults();
    // count 1: the first matching request spends it, the fault is gone and the next request is handled without it.
    emu.addFault({ kind: "latency", latencyMs: 500, operation: "listTemplates", count: 1 });
    expect((await admin(emu, "GET", "/faults")).json.data).toEqual([expect.objectContaining({ kind: "latency", remaining: 1 })]);
    expect((await templatesWithin(20_000)).json.ret_code).toBe(0);
    expect((await admin(emu, "GET", "/faults")).json.data).toEqual([]);
    expect((await templates()).json.ret_code).toBe(0);
  });

  it("http answers the status with an error envelope and Retry-After, count times", async () => {
    emu.addFault({ kind: "http", status: 429, retryAfterSeconds: 2, count: 2 });
    const a = await templates();
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("2");
    expect(a.json).toMatchObject({ ret_code: 429, data: null });
    expect(a.json.meta.X_REQUEST_ID).toMatch(/^req-/);
    expect((await groups()).status).toBe(429);
    expect((await templates()).status).toBe(200);
  });

  it("only hits the named operation", async () => {
    emu.addFault({ kind: "http", status: 503, operation: "listResourceGroups" });
    expect((await templates()).status).toBe(200);
    expect((await groups()).status).toBe(503);
    expect((await groups()).status).toBe(503);
    emu.clearFaults();
    expect((await groups()).status).toBe(200);
  });

  it("retCode answers HTTP 200 with the ret_code and message", async () => {
    emu.addFault({ kind: "retCode", retCode: 2100, message: "quota exceeded", count: 1 });
    const r = await templates();
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ret_code: 2100, message: "quota exceeded", data: null });
  });

  it("malformed answers 200 with a body that is not JSON", async () => {
    emu.addFault({ kind: "malformed", count: 1 });
    const r = await templates();
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    expect(r.text).toContain("502 Bad Gateway");
  });

  it("drop closes the connection without an answer", async () => {
    emu.addFault({ kind: "drop", count: 1 });
    await expect(templates()).rejects.toThrow();
    expect(emu.requests().at(-1)).toMatchObject({ operation: "listTemplates", status: 0 });
    expect((await templates()).status).toBe(200);
  });

  it("probability 0 never fires; faults never touch admin routes; a faulted create changes nothing", async () => {
    emu.addFault({ kind: "http", status: 500, probability: 0 });
    expect((await templates()).status).toBe(200);
    emu.clearFaults();
    emu.addFault({ kind: "http", status: 500 });
    expect((await fetch(`${emu.url}/__emulator/health`)).status).toBe(200);
    const before = emu.listResourceGroups().length;
    const r = await api.post("/resource/resource_group", { name: "x", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 0 });
    expect(r.status).toBe(500);
    expect(emu.listResourceGroups()).toHaveLength(before);
  });

  it("can be installed through the admin API", async () => {
    const res = await fetch(`${emu.url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "http", status: 502, count: 1 }) });
    expect(res.status).toBe(200);
    expect((await templates()).status).toBe(502);
    await fetch(`${emu.url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "http", status: 502 }) });
    await fetch(`${emu.url}/__emulator/faults`, { method: "DELETE" });
    expect((await templates()).status).toBe(200);
  });

  it("refuses the admin API to clients that are not on loopback", async () => {
    // Reaching a non-loopback address is not possible here; the check is exercised through the address helper.
    const { isLoopback } = await import("../../emulator/admin");
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopback("192.168.1.4")).toBe(false);
  });
});
