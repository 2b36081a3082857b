/**
 * The emulator's misbehaviour switches (emulator/misbehaviour.ts) over real
 * HTTP: each changes answers exactly as documented, and turning it off brings
 * the honest answers back.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { admin, client, NS } from "./client";

describe("emulator misbehaviour", () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  const list = async (query: Record<string, string | number> = {}) => (await api.get(`/notebooks/namespaces/${NS}/notebooks`, query)).json;
  const names = async (query: Record<string, string | number> = {}) => ((await list(query)).data as Array<{ name: string }>).map((n) => n.name);

  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
  });
  afterAll(() => emu.close());
  beforeEach(() => {
    emu.clearMisbehaviour();
    for (const n of emu.listNotebooks()) emu.deleteNotebook(String(n.uuid));
  });

  it("omit leaves a name out of exactly the next N list answers that hold it", async () => {
    emu.seedNotebooks({ namespace: NS, count: 3, namePrefix: "o" });
    const [, second] = await names();
    emu.misbehave({ omit: { name: second!, answers: 2 } });
    expect(await names()).not.toContain(second);
    expect(await names()).not.toContain(second);
    expect(await names()).toContain(second);
  });

  it("omit of several names with unfiltered: only whole-namespace answers leave them out, and only those count", async () => {
    emu.seedNotebooks({ namespace: NS, count: 3, namePrefix: "u" });
    const [first, second, third] = await names();
    emu.misbehave({ omit: { name: [first!, second!], answers: 1, unfiltered: true } });
    expect(await names({ name: first! })).toEqual([first]);
    expect(await names()).toEqual([third]);
    expect(await names()).toEqual([first, second, third]);
  });

  it("listDelayMs hides recent creates from lists until the delay passes, and 0 lists them again", async () => {
    emu.seedNotebooks({ namespace: NS, count: 2, namePrefix: "late" });
    emu.misbehave({ listDelayMs: 60_000 });
    expect(await names()).toEqual([]);
    expect(emu.listNotebooks()).toHaveLength(2);
    emu.misbehave({ listDelayMs: 0 });
    expect(await names()).toHaveLength(2);
  });

  it("shiftPages delete removes the oldest other notebook after a first page, so the next page starts one item later", async () => {
    emu.seedNotebooks({ namespace: NS, count: 5, namePrefix: "s" });
    const all = await names();
    emu.misbehave({ shiftPages: "delete" });
    const first = await names({ offset: 0, limit: 2 });
    const second = await names({ offset: 2, limit: 2 });
    expect(first).toEqual(all.slice(0, 2));
    // Item 2 moved onto page 1 after it was read: a walk never sees it.
    expect(second).toEqual(all.slice(3, 5));
  });

  it("claimedCount replaces counts and total_sum on lists", async () => {
    emu.seedNotebooks({ namespace: NS, count: 2, namePrefix: "c" });
    emu.misbehave({ claimedCount: 1_000_000 });
    const answer = await list();
    expect([answer.counts, answer.total_sum, answer.data.length]).toEqual([1_000_000, 1_000_000, 2]);
  });

  it("staleListMs shows a notebook as it was before a write until the window passes; the write's own answer is current", async () => {
    const [uuid] = emu.seedNotebooks({ namespace: NS, count: 1, namePrefix: "stale" });
    const before = (await list()).data[0] as { image: string; status: string };
    emu.misbehave({ staleListMs: 60_000 });
    const answer = await api.post(`/notebooks/namespaces/${NS}/notebooks/change_image`, { uuid, image: "jupyter:new", image_type: "official" });
    expect(answer.json.ret_code).toBe(0);
    expect(JSON.stringify(answer.json.data)).toContain("jupyter:new");
    expect((await list()).data[0]).toMatchObject({ image: before.image, status: before.status });
    expect(emu.listNotebooks()[0]).toMatchObject({ image: "jupyter:new" });
    emu.misbehave({ staleListMs: 0 });
    expect((await list()).data[0]).toMatchObject({ image: "jupyter:new" });
  });

  it("echoRequests repeats the request's URL, signature included, and body in error answers", async () => {
    emu.misbehave({ echoRequests: true });
    const r = await api.post(`/notebooks/namespaces/${NS}/create`, { name: "bad", password_like: "hunter2-secret" });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("signature=");
    expect(r.json.message).toContain("hunter2-secret");
  });

  it("groupLingerMs keeps a deleted group in list and get answers for the window; its delete and update then answer 404", async () => {
    const body = { name: "linger-group", description: "d", sku_id: "sku-1", pod_type: ["job"], customize_enable: 0 };
    const rgId = (await api.post("/resource/resource_group", body)).json.data.rg_id as string;
    const listed = async () =>
      ((await api.get("/resource/resource_group", { limit: 100 })).json.data as Array<{ rg_id: string }>).some((g) => g.rg_id === rgId);
    emu.misbehave({ groupLingerMs: 60_000 });
    expect((await api.send({ method: "DELETE", path: `/resource/resource_group/${rgId}` })).json.ret_code).toBe(0);
    expect(emu.listResourceGroups().some((g) => g.rg_id === rgId)).toBe(false);
    expect(await listed()).toBe(true);
    expect((await api.get(`/resource/resource_group/${rgId}`)).json.data).toMatchObject({ rg_id: rgId, name: "linger-group" });
    const again = await api.send({ method: "DELETE", path: `/resource/resource_group/${rgId}` });
    expect([again.status, again.json.ret_code]).toEqual([404, 404]);
    const update = await api.post("/resource/resource_group", { rg_id: rgId, name: "x", description: "", pod_type: ["job"], customize_enable: 0 }, "PUT");
    expect(update.status).toBe(404);
    emu.clock.advance(60_000);
    expect(await listed()).toBe(false);
    expect((await api.get(`/resource/resource_group/${rgId}`)).status).toBe(404);
  });

  it("the admin route validates switches and turns them off", async () => {
    expect((await admin(emu, "PUT", "/misbehaviour", { listDelayMs: -1 })).status).toBe(400);
    expect((await admin(emu, "PUT", "/misbehaviour", { omit: { name: "x", answers: 1 } })).json.data).toEqual({ omit: { name: "x", answers: 1 } });
    await admin(emu, "DELETE", "/misbehaviour");
    expect((await admin(emu, "GET", "/misbehaviour")).json.data).toEqual({});
  });
});
