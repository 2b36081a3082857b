/**
 * The emulator's clock: a notebook's changes over time (Running after the
 * ready delay, its stop and auto-delete times) follow a clock a test moves
 * forward, so no test sleeps for them or races a short delay under load.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorClock, startEmulator, type Emulator } from "../../emulator";
import { admin, client } from "./client";

const HOUR = 3_600_000;
const NS = "/notebooks/namespaces/usr-emulator";

let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  // An hour to become Running: nothing a test waits for in real time.
  emu = await startEmulator({ notebookReadyDelayMs: HOUR });
  api = client(emu);
});
afterAll(() => emu.close());

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

async function find(uuid: string): Promise<Record<string, unknown> | undefined> {
  const r = await api.get(`${NS}/notebooks`, { limit: 100 });
  return (r.json.data as Array<Record<string, unknown>>).find((n) => n.uuid === uuid);
}

/** A UTC wall-clock time `ms` after the emulator's now, in whole seconds, as the platform takes it. */
function later(ms: number): string {
  return new Date(emu.clock.now() + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

describe("the emulator's clock", () => {
  it("keeps a notebook Pending until the clock passes its ready delay, then Running", async () => {
    const uuid = await create("slow-start");
    expect(await find(uuid)).toMatchObject({ status: "Pending" });
    emu.clock.advance(HOUR - 60_000);
    expect(await find(uuid)).toMatchObject({ status: "Pending" });
    emu.clock.advance(60_000);
    expect(await find(uuid)).toMatchObject({ status: "Running" });
  });

  it("stops a notebook at its stop time and deletes it at its auto-delete time, on the moved clock", async () => {
    const uuid = await create("scheduled", { stop_time: later(2 * HOUR), auto_delete_time: later(3 * HOUR) });
    emu.clock.advance(HOUR);
    expect(await find(uuid)).toMatchObject({ status: "Running" });
    emu.clock.advance(HOUR);
    expect(await find(uuid)).toMatchObject({ status: "Stopped" });
    emu.clock.advance(HOUR);
    expect(await find(uuid)).toBeUndefined();
  });

  it("moves forward through the admin API too, for an emulator in another process", async () => {
    const uuid = await create("remote");
    const before = await admin(emu, "GET", "/clock");
    expect(before.status).toBe(200);
    const moved = await admin(emu, "POST", "/clock", { advance_ms: HOUR });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.json.data.now) - Date.parse(before.json.data.now)).toBeGreaterThanOrEqual(HOUR);
    expect(await find(uuid)).toMatchObject({ status: "Running" });
    expect((await admin(emu, "POST", "/clock", { advance_ms: -1 })).status).toBe(400);
    expect((await admin(emu, "POST", "/clock", {})).status).toBe(400);
  });

  it("can be injected: a clock that stands still keeps every notebook where it is", async () => {
    const clock = new EmulatorClock(() => Date.parse("2030-01-01T00:00:00Z"));
    const still = await startEmulator({ notebookReadyDelayMs: 1, clock });
    try {
      const own = client(still);
      const r = await own.post(`${NS}/create`, {
        charge_mode: "elastic",
        duration: 3600,
        user_id: "usr-emulator",
        namespace: "usr-emulator",
        image: "jupyter:1",
        image_type: "official",
        name: "frozen",
        server_type: "jupyter",
        replica_specs: { replicas: 1, specs: "sku-1", custom_cpu: 2 },
      });
      expect(r.json.data[0]).toMatchObject({ status: "Pending", created_at: "2030-01-01T00:00:00" });
      expect(still.listNotebooks()[0]).toMatchObject({ status: "Pending" });
      clock.advance(1);
      expect(still.listNotebooks()[0]).toMatchObject({ status: "Running" });
    } finally {
      await still.close();
    }
  });
});
