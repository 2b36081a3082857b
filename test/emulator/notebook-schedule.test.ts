/**
 * What a notebook does on its own, after the request that set it up: its stop
 * time stops it, a cleared time is gone, a container can fail while running,
 * and answers may spell a status in a way the provider must still read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { admin, client } from "./client";

const HOUR = 3_600_000;
let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  // An hour to become Running: the tests move the emulator's clock past it.
  emu = await startEmulator({ notebookReadyDelayMs: HOUR });
  api = client(emu);
});
afterAll(() => emu.close());

const NS = "/notebooks/namespaces/usr-emulator";

async function create(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const body = {
    charge_mode: "elastic",
    duration: 3600,
    user_id: "usr-emulator",
    namespace: "usr-emulator",
    image: "jupyter:1",
    image_type: "official",
    name,
    server_type: "jupyter",
    replica_specs: { replicas: 1, specs: "sku-1", custom_cpu: 2 },
    ...extra,
  };
  const r = await api.post(`${NS}/create`, body);
  expect(r.status, r.text).toBe(200);
  return r.json.data[0].uuid as string;
}

async function find(uuid: string): Promise<Record<string, unknown>> {
  const r = await api.get(`${NS}/notebooks`, { limit: 100 });
  return r.json.data.find((n: { uuid: string }) => n.uuid === uuid);
}

/** The notebook as listed once the emulator's clock (emulator/clock.ts) has moved `ms` forward. */
async function after(ms: number, uuid: string): Promise<Record<string, unknown>> {
  emu.clock.advance(ms);
  return find(uuid);
}

describe("a notebook over time", () => {
  it("stops by itself once its stop time has come, and a start runs it again", async () => {
    const uuid = await create("scheduled");
    expect((await after(HOUR, uuid)).status).toBe("Running");
    // Whole seconds, as platforms take them.
    const soon = new Date(emu.clock.now() + HOUR).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect((await api.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: soon })).json.ret_code).toBe(0);
    expect((await after(HOUR - 60_000, uuid)).status).toBe("Running");
    expect((await after(60_000, uuid)).status).toBe("Stopped");
    expect((await api.post(`${NS}/notebooks/start`, { uuids: [uuid], sku_id: "sku-1" })).json.ret_code).toBe(0);
    expect((await find(uuid)).status).toBe("Pending");
    expect((await after(HOUR, uuid)).status).toBe("Running");
  });

  it("an empty stop or auto-delete time clears it", async () => {
    const uuid = await create("cleared", { stop_time: "2031-01-01T00:00:00Z", auto_delete_time: "2031-02-01T00:00:00Z" });
    expect((await find(uuid)).stop_time).toBe("2031-01-01T00:00:00");
    expect((await api.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "" })).json.ret_code).toBe(0);
    expect((await api.post(`${NS}/notebooks/set_delete_time`, { uuid, auto_delete_time: "" })).json.ret_code).toBe(0);
    expect(await find(uuid)).toMatchObject({ stop_time: null, auto_delete_time: null });
  });

  it("a container failed out of band is Failed with its reason until it is started again", async () => {
    const uuid = await create("crashing");
    expect((await after(HOUR, uuid)).status).toBe("Running");
    expect((await admin(emu, "POST", `/notebooks/${uuid}/fail`, { reason: "OOMKilled" })).status).toBe(200);
    expect(await find(uuid)).toMatchObject({ status: "Failed", reason: "OOMKilled" });
    expect((await admin(emu, "POST", `/notebooks/${uuid}/fail`, {})).status).toBe(400);
    expect((await admin(emu, "POST", "/notebooks/nb-unknown/fail", { reason: "x" })).status).toBe(404);
    await api.post(`${NS}/notebooks/start`, { uuids: [uuid], sku_id: "sku-1" });
    expect(await after(HOUR, uuid)).toMatchObject({ status: "Running", reason: null });
  });

  it("statusWords changes how answers spell a status, and nothing else", async () => {
    const uuid = await create("spelled");
    emu.misbehave({ statusWords: { Running: "running", Pending: "Starting" } });
    try {
      expect((await find(uuid)).status).toBe("Starting");
      expect((await after(HOUR, uuid)).status).toBe("running");
      expect(emu.listNotebooks().find((n) => n.uuid === uuid)!.status).toBe("Running");
    } finally {
      emu.clearMisbehaviour();
    }
  });
});
