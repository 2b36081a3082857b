/** Notebooks (platform-api A4.2 and platform-api B1) over time, and their disk metrics (platform-api A4.4). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { type Query, client } from "./client";

/** An hour to become Running: tests move the emulator's clock past it (emulator/clock.ts) rather than wait. */
const DELAY = 3_600_000;
let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({ notebookReadyDelayMs: DELAY });
  api = client(emu);
});
afterAll(() => emu.close());

const NS = "/notebooks/namespaces/usr-emulator";
const post = (path: string, body: unknown) => api.post(path, body);
const list = (query: Query = {}) => api.get(`${NS}/notebooks`, { limit: 100, ...query });
const noZone = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

function createBody(overrides: Record<string, unknown> = {}) {
  return {
    charge_mode: "elastic",
    duration: 3600,
    user_id: "usr-emulator",
    namespace: "usr-emulator",
    image: "coreshub/jupyter:py3.11-torch2.3",
    image_type: "official",
    name: "nb-test",
    server_type: "jupyter",
    envs: [{ name: "MODE", value: "dev" }],
    stop_time: "2030-01-01T10:00:00Z",
    replica_specs: {
      replicas: 1,
      specs: "sku-a100x1",
      replica_type: "Worker",
      custom_cpu: 16,
      custom_memory: 120,
      custom_gpu: 1,
      custom_data_disk_size: 100,
      custom_system_disk_size: 60,
    },
    volume_specs: [{ file_set: "datasets", mount_path: "/mnt/data", volume_type: "zfs", quota: 10, permission: "ro" }],
    pip: "numpy",
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}) {
  const r = await post(`${NS}/create`, createBody(overrides));
  expect(r.status, r.text).toBe(200);
  return r.json.data[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function find(uuid: string) {
  return (await list()).json.data.find((n: { uuid: string }) => n.uuid === uuid);
}

describe("create notebook (platform-api A4.2)", () => {
  it("answers a one-element array with counts 0 and every platform-api A2.2 field", async () => {
    const r = await post(`${NS}/create`, createBody({ name: "fields" }));
    expect(r.json.counts).toBe(0);
    expect(r.json.data).toHaveLength(1);
    const nb = r.json.data[0];
    expect(nb.uuid).toMatch(/^nb-[a-z0-9]{12}$/);
    expect(nb).toMatchObject({
      status: "Pending",
      reason: null,
      name: "fields",
      namespace: "usr-emulator",
      user_id: "usr-emulator",
      root_user_id: "usr-emulator",
      image: "coreshub/jupyter:py3.11-torch2.3",
      image_type: "official",
      server_type: "jupyter",
      envs: [{ name: "MODE", value: "dev" }],
      stop_time: "2030-01-01T10:00:00",
      auto_delete_time: null,
      pip: "numpy",
      ws_url: `/aicp/notebooks/usr-emulator/${nb.uuid}/ws`,
      running_time: 0,
      server: null,
    });
    for (const f of ["user_name", "email", "kuid", "conda", "apt", "pod_ips"]) expect(nb, f).toHaveProperty(f);
    expect(nb.created_at).toMatch(noZone);
    expect(nb.updated_at).toMatch(noZone);
    expect(nb.servers).toEqual([expect.objectContaining({ status: false, server_type: "jupyter", target_port: 8888 })]);
    expect(nb.replica_specs).toMatchObject({ replicas: 1, specs: "sku-a100x1", replica_type: "Worker", custom_cpu: 16, custom_gpu: 1, notebook_uuid: nb.uuid });
    expect(typeof nb.replica_specs.id).toBe("number");
    expect(nb.volume_specs[0]).toMatchObject({
      file_set: "datasets",
      mount_path: "/mnt/data",
      quota: 10,
      permission: "ro",
      file_type: "Directory",
      notebook_uuid: nb.uuid,
    });
    expect(nb.volume_specs[0].pvc_name).toContain(nb.uuid);
  });

  it("fills resources from a template and checks what the replica spec refers to", async () => {
    const nb = await create({ name: "tmpl", replica_specs: { replicas: 1, template_id: 1005 } });
    expect(nb.replica_specs).toMatchObject({ template_id: 1005, custom_gpu: 1, custom_gpu_name: "NVIDIA A800-80G", rg_id: "rg-publicgpu001" });
    const unknownTemplate = await post(`${NS}/create`, createBody({ replica_specs: { replicas: 1, template_id: 9 } }));
    expect(unknownTemplate.status).toBe(404);
    const nodeWithoutGroup = await post(`${NS}/create`, createBody({ replica_specs: { replicas: 1, specs: "rgn-a100x1" } }));
    expect(nodeWithoutGroup.status).toBe(400);
    expect(nodeWithoutGroup.json.message).toContain("replica_specs.rg_id");
  });
});

describe("lifecycle", () => {
  it("goes Pending -> Running after the delay with server details and growing running time", async () => {
    const nb = await create({ name: "life", server_type: "code_server" });
    expect((await find(nb.uuid)).status).toBe("Pending");
    emu.clock.advance(DELAY);
    const running = await find(nb.uuid);
    expect(running.status).toBe("Running");
    expect(running.servers[0]).toMatchObject({ status: true, target_port: 8080, server_type: "code_server" });
    expect(running.servers[0].url).toContain(nb.uuid);
    expect(typeof running.servers[0].password).toBe("string");
    expect(running.server).toMatch(/^ssh /);
    expect(running.pod_ips[0]).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(running.running_time).toBeGreaterThanOrEqual(0);
  });

  it("fails with a reason when the image does not exist", async () => {
    const nb = await create({ name: "bad", image: "library/does-not-exist:1" });
    emu.clock.advance(DELAY);
    const failed = await find(nb.uuid);
    expect(failed.status).toBe("Failed");
    expect(failed.reason).toBe("ErrImagePull: image library/does-not-exist:1 not found");
  });

  it("stops and starts again (resized by custom_spec)", async () => {
    const nb = await create({ name: "stopstart" });
    emu.clock.advance(DELAY);
    const stopped = await post(`${NS}/notebooks/stop`, { uuids: [nb.uuid], save_image: false });
    expect(stopped.status).toBe(200);
    expect(stopped.json.data[0]).toMatchObject({ uuid: nb.uuid, status: "Stopped" });
    expect(stopped.json.data[0].servers[0].status).toBe(false);
    expect((await find(nb.uuid)).status).toBe("Stopped");
    const started = await post(`${NS}/notebooks/start`, {
      uuids: [nb.uuid],
      sku_id: "sku-a100x2",
      custom_spec: { replicas: 1, custom_cpu: 32, custom_memory: 240, custom_gpu: 2 },
    });
    expect(started.json.data[0]).toMatchObject({
      status: "Pending",
      replica_specs: { specs: "sku-a100x2", custom_cpu: 32, custom_gpu: 2, notebook_uuid: nb.uuid },
    });
    emu.clock.advance(DELAY);
    expect((await find(nb.uuid)).status).toBe("Running");
    const missing = await post(`${NS}/notebooks/stop`, { uuids: ["nb-doesnotexist"] });
    expect(missing.status).toBe(404);
    expect((await post(`${NS}/notebooks/start`, { uuids: [nb.uuid] })).status).toBe(400); // sku_id is required
  });

  it("updates stop time and image in place", async () => {
    const nb = await create({ name: "inplace" });
    const st = await post(`${NS}/notebooks/set_stop_time`, { uuid: nb.uuid, stop_time: "2031-05-01 08:30:00" });
    expect(st.json.data.stop_time).toBe("2031-05-01T08:30:00"); // the docs' sample answers an object here
    const ci = await post(`${NS}/notebooks/change_image`, {
      uuid: nb.uuid,
      image: "me/custom:2",
      image_type: "custom",
      secret: { has_auth: true, username: "u", password: "p" },
    });
    expect(ci.json.data[0]).toMatchObject({ image: "me/custom:2", image_type: "custom" });
    expect((await find(nb.uuid)).image).toBe("me/custom:2");
  });

  it("disappears once its auto-delete time has come", async () => {
    const soon = new Date(emu.clock.now() + DELAY).toISOString().slice(0, 19); // no zone: read as UTC
    const nb = await create({ name: "ephemeral", auto_delete_time: soon });
    expect(await find(nb.uuid)).toBeDefined();
    const other = await create({ name: "now-delete" });
    const del = await post(`${NS}/notebooks/set_delete_time`, { uuid: other.uuid, auto_delete_time: new Date(emu.clock.now()).toISOString() });
    expect(del.status).toBe(200);
    expect(await find(other.uuid)).toBeUndefined();
    emu.clock.advance(DELAY);
    expect(await find(nb.uuid)).toBeUndefined();
    expect(emu.listNotebooks().some((n) => n.uuid === nb.uuid)).toBe(false);
  });

  it("can be deleted behind the provider's back", async () => {
    const nb = await create({ name: "oob" });
    expect(emu.deleteNotebook(nb.uuid)).toBe(true);
    expect(emu.deleteNotebook(nb.uuid)).toBe(false);
    const viaAdmin = await create({ name: "oob2" });
    expect((await fetch(`${emu.url}/__emulator/notebooks/${viaAdmin.uuid}`, { method: "DELETE" })).status).toBe(200);
    expect(await find(viaAdmin.uuid)).toBeUndefined();
    expect((await post(`${NS}/notebooks/set_stop_time`, { uuid: viaAdmin.uuid, stop_time: "2031-01-01T00:00:00" })).status).toBe(404);
  });
});

describe("list notebooks", () => {
  it("pages with total_sum = total, filters by name and status, orders by created_at", async () => {
    for (let i = 0; i < 5; i++) await create({ name: `page-${i}` });
    const first = await list({ name: "page-", limit: 2 });
    expect(first.json.total_sum).toBe(5);
    expect(first.json.counts).toBe(2);
    expect(first.json.data.map((n: { name: string }) => n.name)).toEqual(["page-0", "page-1"]);
    const last = await list({ name: "PAGE-", limit: 2, offset: 4 });
    expect(last.json.data.map((n: { name: string }) => n.name)).toEqual(["page-4"]);
    const rev = await list({ name: "page-", limit: 1, reverse: true, order_by: "created_at" });
    expect(rev.json.data[0].name).toBe("page-4");
    emu.clock.advance(DELAY);
    const running = await list({ name: "page-", status: ["Running"] });
    expect(running.json.total_sum).toBe(5);
    const stopped = await list({ name: "page-", status: ["Stopped", "Failed"] });
    expect(stopped.json.total_sum).toBe(0);
  });
});

describe("disk metrics (platform-api A4.4)", () => {
  const metricsPath = "/monitoring/namespaces/usr-emulator/notebook/disk";
  it("returns the six metrics with consistent numbers for a running notebook, counts 0", async () => {
    const nb = await create({ name: "disk" });
    emu.clock.advance(DELAY);
    const r = await api.get(metricsPath, { uuid: nb.uuid });
    expect(r.status).toBe(200);
    expect(r.json.counts).toBe(0);
    expect(r.json.data.map((m: { metric_name: string }) => m.metric_name)).toEqual([
      "notebook_zfs_used_bytes",
      "notebook_zfs_pvc_capacity_bytes",
      "notebook_zfs_pvc_available_bytes",
      "pod_system_disk_limit_bytes",
      "pod_system_disk_usage_bytes",
      "pod_system_disk_available_bytes",
    ]);
    const v: Record<string, number> = {};
    for (const m of r.json.data) {
      expect(m.resultType).toBe("vector");
      expect(m.result[0].metric).toEqual({ notebook_uuid: nb.uuid, namespace: "usr-emulator" });
      expect(typeof m.result[0].value[0]).toBe("number");
      for (const k of ["max_value", "avg_value", "min_value"]) expect(m.result[0], k).toHaveProperty(k);
      v[m.metric_name] = Number(m.result[0].value[1]);
    }
    expect(v.notebook_zfs_pvc_capacity_bytes).toBe(100 * 1024 ** 3);
    expect(v.notebook_zfs_used_bytes! + v.notebook_zfs_pvc_available_bytes!).toBe(v.notebook_zfs_pvc_capacity_bytes);
    expect(v.pod_system_disk_limit_bytes).toBe(60 * 1024 ** 3);
    expect(v.pod_system_disk_usage_bytes! + v.pod_system_disk_available_bytes!).toBe(v.pod_system_disk_limit_bytes);
  });

  it("returns empty results for a notebook that is not running and 404 for an unknown one", async () => {
    const nb = await create({ name: "disk-pending" });
    const r = await api.get(metricsPath, { uuid: nb.uuid });
    expect(r.json.data).toHaveLength(6);
    expect(r.json.data.every((m: { result: unknown[] }) => m.result.length === 0)).toBe(true);
    const unknown = await api.get(metricsPath, { uuid: "nb-unknown00000" });
    expect(unknown.status).toBe(404);
  });
});
