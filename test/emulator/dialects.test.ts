/** Each dialect switch (emulator/types.ts, Dialect) observed over real HTTP, switched without a restart. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DIALECT, EmulatorClock, startEmulator, type Emulator } from "../../emulator";
import { NS, admin, client } from "./client";

let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({ notebookReadyDelayMs: 50 });
  api = client(emu);
});
afterAll(() => emu.close());
afterEach(() => void emu.setDialect(structuredClone(DEFAULT_DIALECT)));

const nbPath = `/notebooks/namespaces/${NS}`;
const notebookBody = (extra: Record<string, unknown> = {}) => ({
  charge_mode: "elastic",
  duration: 3600,
  user_id: NS,
  namespace: NS,
  image: "coreshub/jupyter:py3.11",
  image_type: "official",
  name: "dialect",
  server_type: "jupyter",
  replica_specs: { replicas: 1, custom_cpu: 2, custom_memory: 4 },
  ...extra,
});
async function create(extra: Record<string, unknown> = {}): Promise<string> {
  const r = await api.post(`${nbPath}/create`, notebookBody(extra));
  expect(r.status, r.text).toBe(200);
  return r.json.data[0].uuid as string;
}

function expectGateway404(r: { status: number; headers: Headers; text: string; json: unknown }): void {
  expect(r.status).toBe(404);
  expect(r.headers.get("content-type")).toContain("text/html");
  expect(r.text).toContain("<center>nginx</center>");
  expect(r.json).toBeUndefined();
}

describe("prefixes", () => {
  const qai = () => client(emu, "/qai/aicp");

  it("serves /aicp by default; /qai/aicp answers like a gateway, without the envelope", async () => {
    expect((await api.get("/resource/template", { limit: 1 })).status).toBe(200);
    expectGateway404(await qai().get("/resource/template", { limit: 1 }));
    expectGateway404(await client(emu, "").get("/resource/template"));
  });

  it("serves only /qai/aicp, or both, when told", async () => {
    emu.setDialect({ prefixes: "qai" });
    expect((await qai().get("/resource/template", { limit: 1 })).status).toBe(200);
    expectGateway404(await api.get("/resource/template", { limit: 1 }));
    emu.setDialect({ prefixes: "both" });
    expect((await qai().get("/resource/template", { limit: 1 })).status).toBe(200);
    expect((await api.get("/resource/template", { limit: 1 })).status).toBe(200);
  });

  it("is switched through the admin API too, which merges and validates", async () => {
    const put = await admin(emu, "PUT", "/dialect", { prefixes: "qai", counts: "total" });
    expect(put.status).toBe(200);
    expect(put.json.data).toEqual({ ...DEFAULT_DIALECT, prefixes: "qai", counts: "total" });
    const got = await admin(emu, "GET", "/dialect");
    expect(got.json.data.prefixes).toBe("qai");
    expect(emu.dialect().counts).toBe("total");
    const bad = await admin(emu, "PUT", "/dialect", { prefixes: "v2", colour: "blue" });
    expect(bad.status).toBe(400);
    const message = bad.json.message as string;
    expect(message).toContain("prefixes");
    expect(message).toContain("colour");
  });
});

describe("absentOperations", () => {
  it("makes an operation answer like an unknown route, leaving the others", async () => {
    emu.setDialect({ absentOperations: ["getResourceGroup", "deleteResourceGroup"] });
    const r = await api.get("/resource/resource_group/rg-publicgpu001");
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ detail: "Not Found" });
    expect((await api.send({ method: "DELETE", path: "/resource/resource_group/rg-nothing000001" })).json).toEqual({ detail: "Not Found" });
    expect((await api.get("/resource/resource_group")).status).toBe(200);
  });
});

describe("signatureBody", () => {
  const group = { name: "sig", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 0 };

  it("'empty' (default): a write signed with MD5 of its body is refused like a bad signature and changes nothing", async () => {
    const before = emu.listResourceGroups().length;
    const refused = await api.post("/resource/resource_group", group, "POST", { bodyHash: "body" });
    expect(refused.status).toBe(401);
    expect(refused.json.ret_code).toBe(1102);
    expect(emu.listResourceGroups()).toHaveLength(before);
    const ok = await api.post("/resource/resource_group", group, "POST", { bodyHash: "empty" });
    expect(ok.status).toBe(200);
    expect(emu.requests().at(-1)!.auth!.bodyHash).toBe("empty");
  });

  it("'body': the other way round; a GET is the same under both", async () => {
    emu.setDialect({ signatureBody: "body" });
    expect((await api.post("/resource/resource_group", group, "POST", { bodyHash: "empty" })).json.ret_code).toBe(1102);
    expect((await api.post("/resource/resource_group", group, "POST", { bodyHash: "body" })).status).toBe(200);
    expect(emu.requests().at(-1)!.auth!.bodyHash).toBe("body");
    expect((await api.get("/resource/template", { limit: 1 }, { bodyHash: "body" })).status).toBe(200);
    expect((await api.get("/resource/template", { limit: 1 }, { bodyHash: "empty" })).status).toBe(200);
  });
});

describe("zone", () => {
  it("'required' (default): a missing zone is a 400 envelope", async () => {
    const r = await api.get("/resource/template", { zone: undefined });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ ret_code: 400, message: "zone is required", data: null });
  });

  it("an unknown zone is refused in both modes, naming it; 'optional' lets a request without zone through", async () => {
    for (const mode of ["required", "optional"] as const) {
      emu.setDialect({ zone: mode });
      const r = await api.get("/resource/template", { zone: "mars1" });
      expect(r.status).toBe(400);
      expect(r.json.message).toContain("mars1");
      expect(r.json.message).toContain("unknown");
    }
    expect((await api.get("/resource/template", { zone: undefined })).status).toBe(200);
    for (const zone of ["xb3", "xb2", "hb2", "hd1"]) expect((await api.get("/resource/template", { zone, limit: 1 })).status, zone).toBe(200);
  });
});

describe("paging: counts, totalSum, maxPageSize (250 notebooks)", () => {
  let pager: Emulator;
  let uuids: string[];
  const list = (query: Record<string, number>) => client(pager).get(`${nbPath}/notebooks`, query);
  beforeAll(async () => {
    pager = await startEmulator({ notebookReadyDelayMs: 50 });
    uuids = pager.seedNotebooks({ namespace: NS, count: 250 });
  });
  afterAll(() => pager.close());
  afterEach(() => void pager.setDialect(structuredClone(DEFAULT_DIALECT)));

  it("default: pages of at most 100 whatever limit asks, counts = page length, total_sum = matches", async () => {
    const first = await list({ limit: 1000 });
    expect(first.json.data).toHaveLength(100);
    expect(first.json.counts).toBe(100);
    expect(first.json.total_sum).toBe(250);
    const last = await list({ offset: 200, limit: 100 });
    expect(last.json.data).toHaveLength(50);
    expect(last.json.counts).toBe(50);
    const seen: string[] = [];
    for (let offset = 0; offset < 250; offset += 100) seen.push(...(await list({ offset, limit: 100 })).json.data.map((n: { uuid: string }) => n.uuid));
    expect(seen).toEqual(uuids);
  });

  it("'total' counts: counts is the number of matches", async () => {
    pager.setDialect({ counts: "total" });
    const r = await list({ limit: 10 });
    expect(r.json.data).toHaveLength(10);
    expect(r.json.counts).toBe(250);
  });

  it("totalSum false: no total_sum", async () => {
    pager.setDialect({ totalSum: false });
    const r = await list({ limit: 10 });
    expect(r.json).not.toHaveProperty("total_sum");
  });

  it("maxPageSize: null removes the cap, a number sets it", async () => {
    pager.setDialect({ maxPageSize: null });
    expect((await list({ limit: 1000 })).json.data).toHaveLength(250);
    pager.setDialect({ maxPageSize: 30 });
    const r = await list({ limit: 100 });
    expect(r.json.data).toHaveLength(30);
    expect(r.json.total_sum).toBe(250);
  });
});

describe("bareTimeZone", () => {
  it("+08:00: writes date-times without suffix in UTC+8 and reads a bare request time in it", async () => {
    emu.setDialect({ bareTimeZone: "+08:00" });
    const zoned = await api.post(`${nbPath}/create`, notebookBody({ name: "tz-zoned", stop_time: "2030-01-01T18:00:00Z" }));
    expect(zoned.json.data[0].stop_time).toBe("2030-01-02T02:00:00");
    const bare = await api.post(`${nbPath}/create`, notebookBody({ name: "tz-bare", stop_time: "2030-01-02T02:00:00" }));
    expect(bare.json.data[0].stop_time).toBe("2030-01-02T02:00:00");
    const st = await api.post(`${nbPath}/notebooks/set_stop_time`, { uuid: bare.json.data[0].uuid, stop_time: "2030-06-01 08:00:00" });
    expect(st.json.data.stop_time).toBe("2030-06-01T08:00:00");
    const inPlus8 = (await api.get(`${nbPath}/notebooks`, { name: "tz-bare" })).json.data[0];

    emu.setDialect({ bareTimeZone: "UTC" });
    const inUtc = (await api.get(`${nbPath}/notebooks`, { name: "tz-bare" })).json.data[0];
    expect(inUtc.stop_time).toBe("2030-06-01T00:00:00");
    expect((await api.get(`${nbPath}/notebooks`, { name: "tz-zoned" })).json.data[0].stop_time).toBe("2030-01-01T18:00:00");
    // The same instant, written eight hours apart.
    expect(Date.parse(inPlus8.created_at + "+08:00")).toBe(Date.parse(inUtc.created_at + "Z"));
  });

  it("+08:00: an auto-delete time without zone is read in UTC+8", async () => {
    emu.setDialect({ bareTimeZone: "+08:00" });
    const utcWallClock = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    // One minute ahead on a UTC wall clock is seven hours 59 minutes ago in UTC+8: already past.
    const past = await create({ name: "tz-delete-past" });
    expect((await api.post(`${nbPath}/notebooks/set_delete_time`, { uuid: past, auto_delete_time: utcWallClock(Date.now() + 60_000) })).status).toBe(200);
    // One minute ahead on a UTC+8 wall clock.
    const future = await create({ name: "tz-delete-future" });
    await api.post(`${nbPath}/notebooks/set_delete_time`, { uuid: future, auto_delete_time: utcWallClock(Date.now() + 8 * 3_600_000 + 60_000) });
    const names = (await api.get(`${nbPath}/notebooks`, { name: "tz-delete" })).json.data.map((n: { uuid: string }) => n.uuid);
    expect(names).toEqual([future]);
  });
});

describe("singleWriteData", () => {
  const writes = (uuid: string) =>
    [
      ["set_stop_time", { uuid, stop_time: "2031-01-01T00:00:00Z" }],
      ["set_delete_time", { uuid, auto_delete_time: "2031-01-01T00:00:00Z" }],
      ["change_image", { uuid, image: "coreshub/jupyter:py3.12", image_type: "official" }],
    ] as const;

  it("'docs': set_stop_time an object, set_delete_time and change_image an array", async () => {
    const uuid = await create({ name: "shape-docs" });
    const shapes = [];
    for (const [op, body] of writes(uuid)) shapes.push(Array.isArray((await api.post(`${nbPath}/notebooks/${op}`, body)).json.data) ? "array" : "object");
    expect(shapes).toEqual(["object", "array", "array"]);
  });

  it("'object' and 'array' force one shape on all three", async () => {
    for (const mode of ["object", "array"] as const) {
      emu.setDialect({ singleWriteData: mode });
      const uuid = await create({ name: `shape-${mode}` });
      for (const [op, body] of writes(uuid)) {
        const r = await api.post(`${nbPath}/notebooks/${op}`, body);
        expect(Array.isArray(r.json.data) ? "array" : "object", `${mode} ${op}`).toBe(mode);
        expect((Array.isArray(r.json.data) ? r.json.data[0] : r.json.data).uuid).toBe(uuid);
      }
    }
  });
});

describe("envsAsString", () => {
  it("sends a notebook's envs as a JSON string on create and list; requests still send an array", async () => {
    emu.setDialect({ envsAsString: true });
    const envs = [{ name: "MODE", value: "dev" }];
    const r = await api.post(`${nbPath}/create`, notebookBody({ name: "envs-string", envs }));
    expect(typeof r.json.data[0].envs).toBe("string");
    expect(JSON.parse(r.json.data[0].envs)).toEqual(envs);
    const listed = (await api.get(`${nbPath}/notebooks`, { name: "envs-string" })).json.data[0];
    expect(listed.envs).toBe(r.json.data[0].envs);
    emu.setDialect({ envsAsString: false });
    expect((await api.get(`${nbPath}/notebooks`, { name: "envs-string" })).json.data[0].envs).toEqual(envs);
  });
});

describe("startFailed", () => {
  // A clock that stands still (emulator/clock.ts): Failed comes when the test moves it, and a restart stays Pending however slow the machine.
  let still: Emulator;
  let stillApi: ReturnType<typeof client>;
  beforeAll(async () => {
    still = await startEmulator({ notebookReadyDelayMs: 1000, clock: new EmulatorClock(() => 1_800_000_000_000) });
    stillApi = client(still);
  });
  afterAll(() => still.close());

  it("restart starts a Failed notebook again; refuse answers 400 naming the status and leaves it Failed", async () => {
    const r = await stillApi.post(`${nbPath}/create`, notebookBody({ name: "start-failed", image: "jupyter:does-not-exist" }));
    const uuid = r.json.data[0].uuid as string;
    const status = async () => (await stillApi.get(`${nbPath}/notebooks`, { name: "start-failed" })).json.data[0].status;
    expect(await status()).toBe("Pending");
    still.clock.advance(1000);
    expect(await status()).toBe("Failed");
    still.setDialect({ startFailed: "refuse" });
    const refused = await stillApi.post(`${nbPath}/notebooks/start`, { uuids: [uuid], sku_id: "sku-1" });
    expect([refused.status, refused.json.ret_code]).toEqual([400, 400]);
    expect(refused.json.message).toContain("is Failed and cannot be started");
    expect(await status()).toBe("Failed");
    still.setDialect({ startFailed: "restart" });
    const started = await stillApi.post(`${nbPath}/notebooks/start`, { uuids: [uuid], sku_id: "sku-1" });
    expect(started.json.ret_code).toBe(0);
    expect(await status()).toBe("Pending");
  });
});
