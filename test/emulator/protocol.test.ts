/** The emulator's protocol: envelope, request ids, signature checks, routing, validation, admin API. */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { rawRequest } from "../../emulator/raw-client";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({
    notebookReadyDelayMs: 50,
    credentials: [
      { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" },
      { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" },
    ],
  });
});
afterAll(() => emu.close());

const templates = "/qai/aicp/resource/template";

describe("envelope", () => {
  it("wraps every answer with ret_code, message, data, counts and a fresh request id", async () => {
    const a = await rawRequest(emu.url, { method: "GET", path: templates });
    const b = await rawRequest(emu.url, { method: "GET", path: templates });
    expect(a.status).toBe(200);
    expect(Object.keys(a.json).sort()).toEqual(["counts", "data", "message", "meta", "ret_code"]);
    expect(a.json).toMatchObject({ ret_code: 0, message: "success", meta: { X_REQUEST_USER: "usr-emulator" } });
    expect(a.json.meta.X_REQUEST_ID).toMatch(/^req-[0-9a-f]{16}$/);
    expect(b.json.meta.X_REQUEST_ID).not.toBe(a.json.meta.X_REQUEST_ID);
    expect(a.headers.get("x-request-id")).toBe(a.json.meta.X_REQUEST_ID);
  });

  it("answers an unknown route with 404 naming method and path", async () => {
    const r = await rawRequest(emu.url, { method: "GET", path: "/qai/aicp/no/such/thing" });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ ret_code: 404, data: null });
    expect(r.json.message).toContain("GET /qai/aicp/no/such/thing");
    const wrongMethod = await rawRequest(emu.url, { method: "DELETE", path: templates });
    expect(wrongMethod.status).toBe(404);
  });

  it("rejects a path parameter that decodes to '..' or contains '/'", async () => {
    // fetch would resolve %2E%2E itself (WHATWG URL rules), so this one goes out through node:http with the path as written.
    const dots = await new Promise<number>((resolve, reject) => {
      const path = "/qai/aicp/resource/resource_group/%2E%2E?access_key_id=AKIDEMULATOR&signature=x";
      request({ host: "127.0.0.1", port: emu.port, path }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(dots).toBe(400);
    const slash = await rawRequest(emu.url, { method: "GET", path: "/qai/aicp/resource/resource_group/a%2Fb" });
    expect(slash.status).toBe(400);
    expect(slash.json.message).toContain("rg_id");
  });
});

describe("signature", () => {
  it("rejects an unsigned request with 401 and ret_code 1100", async () => {
    const r = await rawRequest(emu.url, { method: "GET", path: templates, unsigned: true });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ ret_code: 1100, data: null });
    expect(r.json.message).toMatch(/signature is missing/);
  });

  it("rejects an unknown access key with 1101", async () => {
    const r = await rawRequest(emu.url, { method: "GET", path: templates, accessKeyId: "AKIDNOBODY" });
    expect(r.status).toBe(401);
    expect(r.json.ret_code).toBe(1101);
    expect(r.json.message).toContain("AKIDNOBODY");
  });

  it("rejects a wrong secret with 1102", async () => {
    const r = await rawRequest(emu.url, { method: "GET", path: templates, secretAccessKey: "wrong" });
    expect(r.status).toBe(401);
    expect(r.json.ret_code).toBe(1102);
    expect(r.json.message).toMatch(/does not match/);
  });

  it("rejects a body changed after signing", async () => {
    const r = await rawRequest(emu.url, { method: "POST", path: "/qai/aicp/resource/resource_group", body: "{}" });
    expect(r.status).toBe(400); // signed correctly: validation answers
    const res = await fetch(`${emu.url}/qai/aicp/resource/resource_group?access_key_id=AKIDEMULATOR&signature=abc`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
  });

  it("accepts the signature encoded twice, a trailing slash and the /aicp prefix", async () => {
    const twice = await rawRequest(emu.url, { method: "GET", path: templates, query: { limit: 1 }, encodeTwice: true });
    expect(twice.status).toBe(200);
    const slash = await rawRequest(emu.url, { method: "GET", path: templates + "/", query: { limit: 1 } });
    expect(slash.status).toBe(200);
    expect(slash.json.data).toHaveLength(1);
    const short = await rawRequest(emu.url, { method: "GET", path: "/aicp/resource/template", query: { limit: 1 }, encodeTwice: true });
    expect(short.status).toBe(200);
    expect(short.json.data[0].tmp_id).toBe(twice.json.data[0].tmp_id);
  });

  it("acts for the user of the access key", async () => {
    const r = await rawRequest(emu.url, { method: "GET", path: templates, accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret" });
    expect(r.status).toBe(200);
    expect(r.json.meta.X_REQUEST_USER).toBe("usr-other");
    expect(r.json.counts).toBeGreaterThan(0);
  });
});

describe("validation", () => {
  it("answers 400 listing every issue with its property path", async () => {
    const r = await rawRequest(emu.url, {
      method: "POST",
      path: "/qai/aicp/notebooks/namespaces/usr-emulator/create",
      body: {
        charge_mode: "elastic",
        duration: 3600,
        user_id: "usr-emulator",
        namespace: "usr-emulator",
        image: "img",
        image_type: "official",
        name: "x",
        server_type: "vscode",
        replica_specs: { replicas: 0 },
        volume_specs: [{ file_set: "fs", mount_path: "relative", volume_type: "zfs" }],
        colour: "blue",
      },
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ ret_code: 400, data: null });
    for (const path of ["server_type:", "replica_specs.replicas:", "volume_specs[0].mount_path:", "colour: unknown field"]) {
      expect(r.json.message).toContain(path);
    }
  });

  it("applies the spec's cross-field rules", async () => {
    const body = {
      charge_mode: "elastic",
      duration: 60,
      user_id: "usr-emulator",
      namespace: "usr-emulator",
      image: "img",
      image_type: "official",
      name: "x",
      server_type: "jupyter",
      replica_specs: { replicas: 1 },
    };
    const r = await rawRequest(emu.url, { method: "POST", path: "/qai/aicp/notebooks/namespaces/usr-emulator/create", body });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("duration: must be 3600 when charge_mode is elastic");
    const ns = await rawRequest(emu.url, { method: "POST", path: "/qai/aicp/notebooks/namespaces/usr-other/create", body: { ...body, duration: 3600 } });
    expect(ns.status).toBe(400);
    expect(ns.json.message).toContain("namespace:");
  });

  it("rejects an invalid JSON body and an unknown query parameter", async () => {
    const bad = await rawRequest(emu.url, { method: "POST", path: "/qai/aicp/resource/resource_group", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/not valid JSON/);
    const unknown = await rawRequest(emu.url, { method: "GET", path: templates, query: { colour: "blue", limit: "lots" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain("colour: unknown field");
    expect(unknown.json.message).toContain("limit:");
  });
});

describe("admin API", () => {
  it("serves health, the request log and state without a signature", async () => {
    const health = await fetch(`${emu.url}/__emulator/health`).then((r) => r.json());
    expect(health.data.status).toBe("ok");
    emu.clearRequests();
    await rawRequest(emu.url, { method: "GET", path: templates });
    const log = await fetch(`${emu.url}/__emulator/requests`).then((r) => r.json());
    expect(log.data[0]).toMatchObject({ method: "GET", path: templates, operation: "listTemplates", status: 200, retCode: 0 });
    expect(log.data[0].requestId).toMatch(/^req-/);
    expect(emu.requests().at(-1)).toMatchObject({ operation: "admin", path: "/__emulator/requests" });
    await fetch(`${emu.url}/__emulator/requests`, { method: "DELETE" });
    expect(emu.requests().filter((e) => e.operation !== "admin")).toHaveLength(0);
    const state = await fetch(`${emu.url}/__emulator/state`).then((r) => r.json());
    expect(state.data.templates.length).toBeGreaterThanOrEqual(30);
    expect(state.data.resource_groups.map((g: { rg_id: string }) => g.rg_id)).toContain("rg-publicgpu001");
  });

  it("validates faults posted to it", async () => {
    const bad = await fetch(`${emu.url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "http" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain("status");
    const unknownOp = await fetch(`${emu.url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "drop", operation: "nope" }) });
    expect(unknownOp.status).toBe(400);
  });
});
