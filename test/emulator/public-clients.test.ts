/**
 * What the platform's public clients send (platform-api B4, B6): Python
 * booleans, '/' unencoded, repeated keys, numeric array order, the SDK's raw
 * join and its list filters, extra common parameters; the notebook servers
 * route; tenancy; bulk seeding through the admin API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { AUTH_CODES } from "../../emulator/signature";
import { createTrainingJob } from "../support/emulator";
import { NS, ZONE, admin, client } from "./client";

const OTHER = { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret" };
const HOUR = 3_600_000;
let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({
    // An hour to become Running: a test moves the emulator's clock past it.
    notebookReadyDelayMs: HOUR,
    credentials: [
      { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" },
      { ...OTHER, userId: "usr-Other" },
    ],
  });
  api = client(emu);
});
afterAll(() => emu.close());

const nbPath = `/notebooks/namespaces/${NS}`;
const lastLog = () => emu.requests().at(-1)!;

async function create(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await api.post(`${nbPath}/create`, {
    charge_mode: "elastic",
    duration: 3600,
    user_id: NS,
    namespace: NS,
    image: "coreshub/jupyter:py3.11",
    image_type: "official",
    name,
    server_type: "jupyter",
    replica_specs: { replicas: 1 },
    ...extra,
  });
  expect(r.status, r.text).toBe(200);
  return r.json.data[0].uuid as string;
}

describe("query forms of the public clients", () => {
  it("reads Python booleans True/False and JSON-style true/false alike", async () => {
    for (const name of ["bool-a", "bool-b"]) await create(name);
    const names = async (reverse: boolean | string) =>
      (await api.get(`${nbPath}/notebooks`, { name: "bool-", reverse })).json.data.map((n: { name: string }) => n.name);
    expect(await names(true)).toEqual(["bool-b", "bool-a"]); // the signer writes True
    expect(await names(false)).toEqual(["bool-a", "bool-b"]);
    expect(await names("true")).toEqual(["bool-b", "bool-a"]);
    expect(lastLog().query).toMatchObject({ reverse: "true" });
  });

  it("accepts '/' unencoded in a value (Python quote) and encoded (RFC 3986)", async () => {
    await create("team/a-1");
    for (const canonical of ["python", "rfc3986"] as const) {
      const r = await api.get(`${nbPath}/notebooks`, { name: "team/a" }, { canonical });
      expect(r.status).toBe(200);
      expect(r.json.data.map((n: { name: string }) => n.name)).toEqual(["team/a-1"]);
      expect(lastLog().auth!.canonical).toBe(canonical);
    }
  });

  it("takes arrays as repeated keys, integers sorted as numbers", async () => {
    const r = await api.get("/resource/template", { template_ids: [1010, 999, 1002], spec_type: ["common"] });
    expect(r.status).toBe(200);
    expect(r.json.data.map((t: { tmp_id: number }) => t.tmp_id)).toEqual([1002, 1010]);
    expect(lastLog().query!.template_ids).toEqual(["999", "1002", "1010"]);
  });

  it("accepts the operator SDK's raw join and ignores what a route does not model, logging it", async () => {
    const r = await api.get(
      `${nbPath}/notebooks`,
      { name: "", owner: "usr-emulator", user_id: "usr-emulator", endpoints: ["x"], start_at: "2000-01-01 00:00:00", reverse: false, limit: 2 },
      { canonical: "raw", signatureEncoding: "once" },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toHaveLength(2);
    expect(lastLog().auth).toEqual({ canonical: "raw", bodyHash: "empty", signatureEncoding: "once" });
    expect(lastLog().ignoredParams!.sort()).toEqual(["endpoints", "user_id"]);
    expect(lastLog().query).toMatchObject({ start_at: "2000-01-01 00:00:00", reverse: "False", zone: ZONE });
  });

  it("lists training jobs the way the SDK does: namespace ALL, its filters, limit 100", async () => {
    await createTrainingJob(emu, "sdk-job", [{ replica_type: "Worker", replicas: 1 }], "tfjobs");
    await createTrainingJob(emu, "sdk-other", [{ replica_type: "Master", replicas: 1 }]);
    const r = await client(emu).get(
      "/trains/namespaces/ALL/trains",
      {
        namespace: "ALL",
        name: "sdk-j",
        image_name: "",
        reverse: false,
        offset: 0,
        limit: 100,
        status: ["Running"],
        endpoints: ["tfjobs"],
        start_at: "2000-01-01 00:00:00",
      },
      { canonical: "raw", signatureEncoding: "once" },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.map((j: { name: string }) => j.name)).toEqual(["sdk-job"]);
    expect(r.json.data[0].uuid).toMatch(/^tn-/);
    expect(lastLog().ignoredParams).toEqual(["namespace"]);
  });

  it("accepts every request the published Python clients signed (test/fixtures/signature-vectors.json)", async () => {
    const fixture = JSON.parse(readFileSync(join(__dirname, "..", "fixtures", "signature-vectors.json"), "utf8")) as {
      vectors: Array<{
        id: string;
        client: "coreshub-mcp-server" | "qingcloud-sdk";
        method: string;
        access_key_id: string;
        secret_access_key: string;
        url: string;
      }>;
    };
    // An emulator that knows every key the vectors were signed with, each acting for usr-emulator (the vectors' namespace).
    const keys = [
      ...new Map(
        fixture.vectors.map((v) => [v.access_key_id, { accessKeyId: v.access_key_id, secretAccessKey: v.secret_access_key, userId: "usr-emulator" }]),
      ).values(),
    ];
    const own = await startEmulator({ credentials: keys });
    try {
      for (const v of fixture.vectors) {
        const r = await fetch(own.url + v.url, { method: v.method });
        const body = (await r.json()) as { ret_code: number };
        // The signature was verified (the request log records how), in the client's own encoding.
        const logged = own.requests().at(-1)!;
        expect(logged.auth, v.id).toMatchObject({ bodyHash: "empty", signatureEncoding: v.client === "coreshub-mcp-server" ? "twice" : "once" });
        expect(Object.values(AUTH_CODES), v.id).not.toContain(body.ret_code);
        // A read answers: the servers vector names a notebook that does not exist, so a 404 envelope is its answer.
        // A write goes without the body it needs (or, with no parameters, without a zone): refused with 400 after the signature.
        if (v.method === "GET") expect([0, 404], v.id).toContain(body.ret_code);
        else expect(body.ret_code, v.id).toBe(400);
      }
    } finally {
      await own.close();
    }
  });
});

describe("notebook access info: GET .../notebooks/{uuid}/servers", () => {
  it("answers the development server and SSH, filtered by services, passwords once running", async () => {
    const uuid = await create("servers");
    const pending = await api.get(`${nbPath}/notebooks/${uuid}/servers`);
    expect(pending.json.data.map((s: { status: boolean; password: unknown }) => [s.status, s.password])).toEqual([
      [false, null],
      [false, null],
    ]);
    emu.clock.advance(HOUR);
    // The MCP server's call: services ssh, custom, node_port, with owner and user_id.
    const mcp = await api.get(`${nbPath}/notebooks/${uuid}/servers`, { owner: NS, user_id: NS, services: ["ssh", "custom", "node_port"] });
    expect(mcp.status).toBe(200);
    expect(mcp.json.counts).toBe(1);
    expect(mcp.json.data[0]).toMatchObject({ status: true, protocol: "ssh", server_type: "ssh", target_port: 22 });
    expect(typeof mcp.json.data[0].password).toBe("string");
    expect(lastLog().ignoredParams!.sort()).toEqual(["owner", "user_id"]);
    // The docs' sample: services=jupyter.
    const docs = await api.get(`${nbPath}/notebooks/${uuid}/servers`, { services: "jupyter" });
    expect(docs.json.data).toEqual([
      expect.objectContaining({ status: true, protocol: "http", server_name: "jupyter", server_type: "jupyter", target_port: 8888 }),
    ]);
    for (const key of ["status", "protocol", "server_name", "server_type", "url", "target_port", "password"]) expect(docs.json.data[0]).toHaveProperty(key);
    expect((await api.get(`${nbPath}/notebooks/nb-nosuchthing0/servers`)).status).toBe(404);
  });
});

describe("tenancy", () => {
  const other = () => client(emu);
  const asOther = { ...OTHER };

  it("answers 403 naming the namespace for another account's namespace", async () => {
    const uuid = await create("mine");
    const list = await other().get(`${nbPath}/notebooks`, {}, asOther);
    expect(list.status).toBe(403);
    expect(list.json).toMatchObject({ ret_code: 1103, data: null });
    expect(list.json.message).toContain(`'${NS}'`);
    expect((await other().post(`${nbPath}/notebooks/stop`, { uuids: [uuid] }, "POST", asOther)).status).toBe(403);
    expect((await other().get(`${nbPath}/notebooks/${uuid}/servers`, {}, asOther)).status).toBe(403);
    expect((await other().get(`/trains/namespaces/${NS}/trains`, {}, asOther)).status).toBe(403);
    expect((await other().get(`/monitoring/namespaces/${NS}/notebook/disk`, {}, asOther)).status).toBe(403);
  });

  it("gives each key its own namespace (the user id in lower case) and its own groups", async () => {
    const mine = await other().get("/notebooks/namespaces/usr-other/notebooks", {}, asOther);
    expect(mine.status).toBe(200);
    expect(mine.json.total_sum).toBe(0);
    expect((await other().get("/notebooks/namespaces/usr-Other/notebooks", {}, asOther)).status).toBe(403);
    const g = await api.post("/resource/resource_group", { name: "private", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 0 });
    expect((await other().get(`/resource/resource_group/${g.json.data.rg_id}`, {}, asOther)).status).toBe(404);
    expect((await other().get("/resource/resource_group", {}, asOther)).json.total_sum).toBe(0);
    expect((await other().send({ method: "DELETE", path: `/resource/resource_group/${g.json.data.rg_id}`, ...asOther })).status).toBe(404);
  });
});

describe("seeding through the admin API", () => {
  it("creates ordinary notebooks at once: listed, stoppable, deletable", async () => {
    const res = await admin(emu, "POST", "/notebooks", { namespace: "usr-other", count: 120, namePrefix: "bulk", status: "Stopped" });
    expect(res.status).toBe(200);
    const { data, counts } = res.json as { data: { uuids: string[] }; counts: number };
    expect(counts).toBe(120);
    const other = client(emu);
    const page = await other.get("/notebooks/namespaces/usr-other/notebooks", { name: "bulk-", limit: 100, offset: 100 }, OTHER);
    expect(page.json.total_sum).toBe(120);
    expect(page.json.data.map((n: { name: string; status: string; user_id: string }) => [n.name, n.status, n.user_id])[0]).toEqual([
      "bulk-0100",
      "Stopped",
      "usr-Other",
    ]);
    const started = await other.post("/notebooks/namespaces/usr-other/notebooks/start", { uuids: [data.uuids[0]], sku_id: "sku-1" }, "POST", OTHER);
    expect(started.json.data[0].status).toBe("Pending");
    expect(emu.deleteNotebook(data.uuids[1]!)).toBe(true);
    const bad = await admin(emu, "POST", "/notebooks", { namespace: "usr-other", count: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("count");
  });
});
