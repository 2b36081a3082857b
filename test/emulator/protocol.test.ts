/** The emulator's protocol: envelope, request ids, signature checks, routing, validation, admin API. */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { signedRequest } from "../support/signed-request";
import { NS, ZONE, admin, client } from "./client";

let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({
    notebookReadyDelayMs: 50,
    credentials: [
      { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" },
      { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" },
    ],
  });
  api = client(emu);
});
afterAll(() => emu.close());

const templates = "/resource/template";

describe("envelope", () => {
  it("wraps every answer with ret_code, message, data, counts and a fresh request id", async () => {
    const a = await api.get("/resource/resource_group/rg-publicgpu001");
    const b = await api.get("/resource/resource_group/rg-publicgpu001");
    expect(a.status).toBe(200);
    expect(Object.keys(a.json).sort()).toEqual(["counts", "data", "message", "meta", "ret_code"]);
    expect(a.json).toMatchObject({ ret_code: 0, message: "success", meta: { X_REQUEST_USER: "usr-emulator" } });
    expect(a.json.meta.X_REQUEST_ID).toMatch(/^req-[0-9a-f]{16}$/);
    expect(b.json.meta.X_REQUEST_ID).not.toBe(a.json.meta.X_REQUEST_ID);
    expect(a.headers.get("x-request-id")).toBe(a.json.meta.X_REQUEST_ID);
  });

  it("adds total_sum to list answers", async () => {
    const r = await api.get(templates, { limit: 1 });
    expect(Object.keys(r.json).sort()).toEqual(["counts", "data", "message", "meta", "ret_code", "total_sum"]);
  });

  it("answers an unknown route under the served prefix with the framework's 404, not the envelope", async () => {
    const r = await api.get("/no/such/thing");
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ detail: "Not Found" });
    const wrongMethod = await api.send({ method: "DELETE", path: templates });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.json).toEqual({ detail: "Not Found" });
    expect(emu.requests().at(-1)).toMatchObject({ status: 404 });
    expect(emu.requests().at(-1)!.operation).toBeUndefined();
  });

  it("rejects a path parameter that decodes to '..' or contains '/'", async () => {
    // fetch would resolve %2E%2E itself (WHATWG URL rules), so this one goes out through node:http with the path as written.
    const dots = await new Promise<number>((resolve, reject) => {
      const path = "/aicp/resource/resource_group/%2E%2E?access_key_id=AKIDEMULATOR&signature=x";
      request({ host: "127.0.0.1", port: emu.port, path }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(dots).toBe(400);
    const slash = await api.get("/resource/resource_group/a%2Fb");
    expect(slash.status).toBe(400);
    expect(slash.json.message).toContain("rg_id");
  });
});

describe("signature", () => {
  it("rejects an unsigned request with 401 and ret_code 1100", async () => {
    const r = await api.get(templates, {}, { unsigned: true });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ ret_code: 1100, data: null });
    expect(r.json.message).toMatch(/signature is missing/);
  });

  it("rejects an unknown access key with 1101", async () => {
    const r = await api.get(templates, {}, { accessKeyId: "AKIDNOBODY" });
    expect(r.status).toBe(401);
    expect(r.json.ret_code).toBe(1101);
    expect(r.json.message).toContain("AKIDNOBODY");
  });

  it("rejects a wrong secret with 1102", async () => {
    const r = await api.get(templates, {}, { secretAccessKey: "wrong" });
    expect(r.status).toBe(401);
    expect(r.json.ret_code).toBe(1102);
    expect(r.json.message).toMatch(/does not match/);
  });

  it("rejects a signature that does not match the request", async () => {
    const r = await api.post("/resource/resource_group", "{}");
    expect(r.status).toBe(400); // signed correctly: validation answers
    const res = await fetch(`${emu.url}/aicp/resource/resource_group?zone=${ZONE}&access_key_id=AKIDEMULATOR&signature=abc`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
  });

  it("accepts the signature encoded once or twice, with or without the trailing slash", async () => {
    for (const signatureEncoding of ["once", "twice"] as const) {
      for (const trailingSlash of [false, true]) {
        const r = await api.get(templates, { limit: 1 }, { signatureEncoding, trailingSlash });
        expect(r.status, `${signatureEncoding} ${trailingSlash}`).toBe(200);
        expect(r.json.data).toHaveLength(1);
      }
    }
  });

  it("acts for the user of the access key", async () => {
    const r = await api.get(templates, {}, { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret" });
    expect(r.status).toBe(200);
    expect(r.json.meta.X_REQUEST_USER).toBe("usr-other");
    expect(r.json.total_sum).toBeGreaterThan(0);
  });
});

describe("validation", () => {
  it("answers 400 listing every issue of a body with its property path", async () => {
    const r = await api.post(`/notebooks/namespaces/${NS}/create`, {
      charge_mode: "elastic",
      duration: 3600,
      user_id: NS,
      namespace: NS,
      image: "img",
      image_type: "official",
      name: "x",
      server_type: "vscode",
      replica_specs: { replicas: 0, custom_gpu_list: ["GPU-1", "GPU-1"] },
      volume_specs: [{ file_set: "fs", mount_path: "/m", volume_type: "zfs", permission: "rwx" }],
      custom_image_secret: { has_auth: true },
      colour: "blue",
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ ret_code: 400, data: null });
    for (const path of [
      "server_type:",
      "replica_specs.replicas:",
      "replica_specs.custom_gpu_list: must not contain duplicates",
      "volume_specs[0].permission:",
      "custom_image_secret.username: is required when has_auth is true",
      "custom_image_secret.password: is required when has_auth is true",
      "colour: unknown field",
    ]) {
      expect(r.json.message).toContain(path);
    }
  });

  it("applies the spec's duration rules and the path's namespace", async () => {
    const body = {
      charge_mode: "elastic",
      duration: 60,
      user_id: NS,
      namespace: NS,
      image: "img",
      image_type: "official",
      name: "x",
      server_type: "jupyter",
      replica_specs: { replicas: 1 },
    };
    const r = await api.post(`/notebooks/namespaces/${NS}/create`, body);
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("duration: must be 3600 when charge_mode is elastic");
    for (const duration of [0, 61]) {
      const monthly = await api.post(`/notebooks/namespaces/${NS}/create`, { ...body, charge_mode: "monthly", duration });
      expect(monthly.json.message).toContain("duration: must be a number of months from 1 to 60");
    }
    const ns = await api.post(`/notebooks/namespaces/${NS}/create`, { ...body, duration: 3600, namespace: "usr-other" });
    expect(ns.status).toBe(400);
    expect(ns.json.message).toContain("namespace:");
  });

  it("rejects invalid JSON; ignores query names a route does not model, refuses a bad value of one it does", async () => {
    const bad = await api.post("/resource/resource_group", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/not valid JSON/);
    const ignored = await api.get(templates, { colour: "blue", limit: 2 });
    expect(ignored.status).toBe(200);
    expect(ignored.json.data).toHaveLength(2);
    expect(emu.requests().at(-1)).toMatchObject({ ignoredParams: ["colour"], query: { colour: "blue", limit: "2", zone: ZONE } });
    const badLimit = await api.get(templates, { limit: "lots" });
    expect(badLimit.status).toBe(400);
    expect(badLimit.json.message).toContain("limit:");
  });
});

describe("admin API", () => {
  it("serves health, the request log and state without a signature", async () => {
    const health = await admin(emu, "GET", "/health");
    expect(health.json.data.status).toBe("ok");
    emu.clearRequests();
    await api.get(templates);
    const log = (await admin(emu, "GET", "/requests")).json;
    expect(log.data[0]).toMatchObject({ method: "GET", path: "/aicp" + templates, operation: "listTemplates", status: 200, retCode: 0 });
    expect(log.data[0].auth).toEqual({ canonical: "rfc3986", bodyHash: "empty", signatureEncoding: "twice" });
    expect(log.data[0].requestId).toMatch(/^req-/);
    expect(emu.requests().at(-1)).toMatchObject({ operation: "admin", path: "/__emulator/requests" });
    await fetch(`${emu.url}/__emulator/requests`, { method: "DELETE" });
    expect(emu.requests().filter((e) => e.operation !== "admin")).toHaveLength(0);
    const state = (await admin(emu, "GET", "/state")).json;
    expect(state.data.templates.length).toBeGreaterThanOrEqual(30);
    expect(state.data.resource_groups.map((g: { rg_id: string }) => g.rg_id)).toContain("rg-publicgpu001");
  });

  it("validates faults posted to it", async () => {
    const bad = await admin(emu, "POST", "/faults", { kind: "http" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("status");
    const unknownOp = await fetch(`${emu.url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ kind: "drop", operation: "nope" }) });
    expect(unknownOp.status).toBe(400);
  });

  it("still signs the way the test helper signs (a raw request with a Python-encoded '/' in a value)", async () => {
    const r = await signedRequest(emu.url, { method: "GET", path: "/aicp" + templates, query: { zone: ZONE, gpu_name: "a/b" } });
    expect(r.status).toBe(200);
    expect(emu.requests().at(-1)!.auth!.canonical).toBe("python");
  });
});
