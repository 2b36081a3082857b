/**
 * Tenancy: with two keys for two users, user B's key reads,
 * stops, starts, deletes, changes and creates nothing of user A's, one test per
 * operation kind, and A's objects are unchanged afterwards. The namespace is
 * the user id in lower case (platform-api B1); platform groups are visible
 * to every key and changeable by none.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import type { SignedResponse } from "../support/signed-request";
import { type Query, admin, client } from "./client";

// A mixed-case user id: its namespace is the lower-cased id.
const ALICE = { accessKeyId: "AKIDALICE", secretAccessKey: "alice-secret", userId: "usr-Alice" };
const BOB = { accessKeyId: "AKIDBOB", secretAccessKey: "bob-secret", userId: "usr-bob" };
const NS_A = "usr-alice";
const NS_B = "usr-bob";
const NB_A = `/notebooks/namespaces/${NS_A}`;
const NB_B = `/notebooks/namespaces/${NS_B}`;
const PLATFORM_GROUP = "rg-publicgpu001";

let emu: Emulator;
/** Every answer B's key got in the current test, to look for what B cannot know of A's in (a name B sent may come back in an error). */
let bobAnswers: string[] = [];
/** A's objects, made in beforeAll. */
const a = { group: "", template: 0, shared: 0, running: "", stopped: "", password: "", job: "alice-private-job" };
let before: unknown;

/** A signed client acting for `who`. */
function as(who: typeof ALICE, record = false) {
  const api = client(emu);
  const keys = { accessKeyId: who.accessKeyId, secretAccessKey: who.secretAccessKey };
  const kept = (r: SignedResponse) => (record && bobAnswers.push(r.text), r);
  return {
    get: async (path: string, query?: Query) => kept(await api.get(path, query, keys)),
    post: async (path: string, body: unknown, method = "POST") => kept(await api.post(path, body, method, keys)),
  };
}
const alice = () => as(ALICE);
const bob = () => as(BOB, true);

/** Refused with `status`, the envelope carrying no data. */
function refused(r: SignedResponse, status: number, retCode = status): void {
  expect(r.status, r.text).toBe(status);
  expect(r.json).toMatchObject({ ret_code: retCode, data: null });
}

/** A create body for `who`'s own namespace. */
function notebookBody(who: typeof ALICE, name: string, extra: Record<string, unknown> = {}) {
  const { replica_specs, ...rest } = extra;
  return {
    charge_mode: "elastic",
    duration: 3600,
    user_id: who.userId,
    namespace: who.userId.toLowerCase(),
    image: "jupyter/base:1",
    image_type: "official",
    name,
    server_type: "jupyter",
    replica_specs: { replicas: 1, specs: "sku-1", ...(replica_specs as object) },
    ...rest,
  };
}
function jobBody(name: string, spec: Record<string, unknown> = {}) {
  return {
    charge_mode: "elastic",
    duration: 3600,
    name,
    endpoint: "tfjobs",
    image: "tf:2",
    image_type: "official",
    replica_specs: [{ replica_type: "Worker", replicas: 1, ...spec }],
  };
}

/**
 * Everything of A's, and everything anyone made that points at A's group or
 * template or claims A's user id, wire-shaped (running_time moves with the clock).
 */
async function aliceState() {
  const s = (await admin(emu, "GET", "/state")).json.data;
  const mine = (u: string) => String(u).toLowerCase() === NS_A;
  const usesA = (spec: { rg_id?: string; template_id?: number }) => spec.rg_id === a.group || spec.template_id === a.template;
  return {
    notebooks: s.notebooks
      .filter((n: any) => n.namespace === NS_A || mine(n.user_id) || usesA(n.replica_specs)) // eslint-disable-line @typescript-eslint/no-explicit-any
      .map(({ running_time: _t, ...n }: Record<string, unknown>) => n),
    groups: s.resource_groups.filter((g: { user_id: string }) => mine(g.user_id)),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    jobs: s.training_jobs.filter((j: any) => j.namespace === NS_A || mine(j.user_id) || j.replica_specs.some(usesA)),
    templates: s.templates.filter((t: { rg_id: string; tmp_id: number }) => t.rg_id === a.group || t.tmp_id === a.template || t.tmp_id === a.shared),
  };
}

beforeAll(async () => {
  // Notebooks run at once: a state that moves on its own would blur what B's requests changed.
  emu = await startEmulator({ notebookReadyDelayMs: 0, credentials: [ALICE, BOB] });
  const A = alice();
  a.group = (
    await A.post("/resource/resource_group", {
      name: "alice-private-group",
      description: "A",
      sku_id: "sku-a",
      pod_type: ["instance", "job"],
      customize_enable: 1,
    })
  ).json.data.rg_id;
  const tpl = await A.post("/resource/template", {
    name: "alice-private-template",
    cpu: 4,
    memory: 8,
    gpu: 0,
    rg_id: a.group,
    rg_node_id: "rgn-alice",
    pod_type: ["instance", "job"],
    spec_type: "only_cpu",
  });
  a.template = tpl.json.data.tmp_ids[0];
  const shared = await A.post("/resource/template", {
    name: "alice-shared-template",
    cpu: 2,
    memory: 4,
    gpu: 0,
    rg_id: a.group,
    rg_node_id: "rgn-alice",
    pod_type: ["job"],
    spec_type: "only_cpu",
    show_user: [ALICE.userId, BOB.userId],
  });
  a.shared = shared.json.data.tmp_ids[0];
  const make = async (name: string) =>
    (await A.post(`${NB_A}/create`, notebookBody(ALICE, name, { replica_specs: { rg_id: a.group } }))).json.data[0].uuid as string;
  a.running = await make("alice-running-notebook");
  a.stopped = await make("alice-stopped-notebook");
  expect((await A.post(`${NB_A}/notebooks/stop`, { uuids: [a.stopped] })).status).toBe(200);
  expect((await A.post(`/trains/namespaces/${NS_A}/create`, jobBody(a.job, { rg_id: a.group }))).status).toBe(200);
  a.password = (await A.get(`${NB_A}/notebooks/${a.running}/servers`)).json.data[0].password;
  expect(a.password).toMatch(/^\S{8,}$/);
  before = await aliceState();
  expect(JSON.stringify(before)).toContain(a.password); // the snapshot would see a changed password
});
afterAll(() => emu.close());

afterEach(async () => {
  // Checked against what the next test starts from, so one test's harm is reported by that test alone.
  const [expected, answers] = [before, bobAnswers];
  [before, bobAnswers] = [await aliceState(), []];
  expect(before).toEqual(expected);
  for (const text of answers) {
    for (const secret of [a.password, "alice-private-group", "alice-private-template", "alice-running-notebook", "alice-stopped-notebook"]) {
      expect(text, `B's answer discloses ${secret}`).not.toContain(secret);
    }
  }
});

describe("notebooks: B's key and A's notebooks", () => {
  it("list: A's namespace is refused whatever its case; ALL and B's own namespace hold none of A's", async () => {
    refused(await bob().get(`${NB_A}/notebooks`, { limit: 100 }), 403, 1103);
    refused(await bob().get("/notebooks/namespaces/USR-ALICE/notebooks"), 403, 1103);
    expect((await bob().post(`${NB_B}/create`, notebookBody(BOB, "bob-own"))).status).toBe(200);
    for (const ns of ["ALL", NS_B]) {
      const own = await bob().get(`/notebooks/namespaces/${ns}/notebooks`, { limit: 100, owner: ALICE.userId });
      expect(own.status).toBe(200);
      expect(own.json.total_sum).toBe(0);
      const names = (await bob().get(`/notebooks/namespaces/${ns}/notebooks`, { limit: 100 })).json.data.map((n: { name: string }) => n.name);
      expect(names).toContain("bob-own");
      expect(names.every((n: string) => n.startsWith("bob-"))).toBe(true);
    }
  });

  it("servers: A's passwords are refused in A's namespace and not found in B's", async () => {
    refused(await bob().get(`${NB_A}/notebooks/${a.running}/servers`), 403, 1103);
    refused(await bob().get(`${NB_B}/notebooks/${a.running}/servers`), 404);
  });

  it("stop: refused in A's namespace, not found in B's", async () => {
    refused(await bob().post(`${NB_A}/notebooks/stop`, { uuids: [a.running] }), 403, 1103);
    refused(await bob().post(`${NB_B}/notebooks/stop`, { uuids: [a.running] }), 404);
  });

  it("start: refused in A's namespace, not found in B's, and B's own start cannot use A's group or template", async () => {
    refused(await bob().post(`${NB_A}/notebooks/start`, { uuids: [a.stopped], sku_id: "sku-1" }), 403, 1103);
    refused(await bob().post(`${NB_B}/notebooks/start`, { uuids: [a.stopped], sku_id: "sku-1" }), 404);
    const own = (await bob().post(`${NB_B}/create`, notebookBody(BOB, "bob-restart"))).json.data[0].uuid;
    expect((await bob().post(`${NB_B}/notebooks/stop`, { uuids: [own] })).status).toBe(200);
    refused(await bob().post(`${NB_B}/notebooks/start`, { uuids: [own], sku_id: "sku-1", custom_spec: { rg_id: a.group } }), 404);
    refused(await bob().post(`${NB_B}/notebooks/start`, { uuids: [own], sku_id: "sku-1", custom_spec: { template_id: a.template } }), 404);
  });

  it("set_stop_time, set_delete_time (a past time deletes) and change_image: refused in A's namespace, not found in B's", async () => {
    for (const ns of [NB_A, NB_B]) {
      const status = ns === NB_A ? 403 : 404;
      const retCode = ns === NB_A ? 1103 : 404;
      refused(await bob().post(`${ns}/notebooks/set_stop_time`, { uuid: a.running, stop_time: "2020-01-01T00:00:00Z" }), status, retCode);
      refused(await bob().post(`${ns}/notebooks/set_delete_time`, { uuid: a.running, auto_delete_time: "2020-01-01T00:00:00Z" }), status, retCode);
      refused(await bob().post(`${ns}/notebooks/change_image`, { uuid: a.running, image: "bob/evil:1", image_type: "user" }), status, retCode);
    }
  });

  it("create: nothing in A's namespace, under A's user id, in A's group or from A's private template", async () => {
    refused(await bob().post(`${NB_A}/create`, { ...notebookBody(BOB, "bob-in-a"), namespace: NS_A }), 403, 1103);
    refused(await bob().post(`${NB_B}/create`, { ...notebookBody(BOB, "bob-body-ns"), namespace: NS_A }), 400);
    refused(await bob().post(`${NB_B}/create`, { ...notebookBody(BOB, "bob-as-a"), user_id: ALICE.userId }), 403, 1103);
    refused(await bob().post(`${NB_B}/create`, notebookBody(BOB, "bob-in-a-group", { replica_specs: { rg_id: a.group } })), 404);
    refused(await bob().post(`${NB_B}/create`, notebookBody(BOB, "bob-a-template", { replica_specs: { template_id: a.template } })), 404);
  });

  it("disk metrics: refused in A's namespace, not found in B's", async () => {
    refused(await bob().get(`/monitoring/namespaces/${NS_A}/notebook/disk`, { uuid: a.running }), 403, 1103);
    refused(await bob().get(`/monitoring/namespaces/${NS_B}/notebook/disk`, { uuid: a.running }), 404);
  });
});

describe("training: B's key and A's jobs", () => {
  it("list: A's namespace is refused; ALL and B's own namespace hold none of A's jobs", async () => {
    refused(await bob().get(`/trains/namespaces/${NS_A}/trains`), 403, 1103);
    for (const ns of ["ALL", NS_B]) {
      const own = await bob().get(`/trains/namespaces/${ns}/trains`, { limit: 100 });
      expect(own.status).toBe(200);
      expect(own.json.data.map((j: { name: string }) => j.name)).not.toContain(a.job);
    }
  });

  it("pods: refused in A's namespace, not found in B's", async () => {
    refused(await bob().get(`/trains/namespaces/${NS_A}/endpoints/tfjobs/trains/${a.job}/pods`), 403, 1103);
    refused(await bob().get(`/trains/namespaces/${NS_B}/endpoints/tfjobs/trains/${a.job}/pods`), 404);
  });

  it("create: nothing in A's namespace (ALL included), in A's group or from A's private template", async () => {
    refused(await bob().post(`/trains/namespaces/${NS_A}/create`, jobBody("bob-in-a")), 403, 1103);
    refused(await bob().post("/trains/namespaces/ALL/create", jobBody("bob-all")), 403, 1103);
    refused(await bob().post(`/trains/namespaces/${NS_B}/create`, jobBody("bob-a-group", { rg_id: a.group })), 404);
    refused(await bob().post(`/trains/namespaces/${NS_B}/create`, jobBody("bob-a-template", { template_id: a.template })), 404);
  });
});

describe("resource groups: B's key and A's group", () => {
  it("get: A's group reads as missing; a platform group is visible", async () => {
    refused(await bob().get(`/resource/resource_group/${a.group}`), 404);
    expect((await bob().get(`/resource/resource_group/${PLATFORM_GROUP}`)).json.data.rg_id).toBe(PLATFORM_GROUP);
  });

  it("list: B's listing holds none of A's groups", async () => {
    const listed = await bob().get("/resource/resource_group", { search_word: "alice", limit: 100 });
    expect(listed.status).toBe(200);
    expect(listed.json.total_sum).toBe(0);
    expect(JSON.stringify((await bob().get("/resource/resource_group", { limit: 100 })).json.data)).not.toContain(a.group);
  });

  it("update: A's group is not found, a platform group cannot be changed", async () => {
    const body = { name: "bob-renamed", description: "", pod_type: ["job"], customize_enable: 0 };
    refused(await bob().post("/resource/resource_group", { ...body, rg_id: a.group }, "PUT"), 404);
    refused(await bob().post("/resource/resource_group", { ...body, rg_id: PLATFORM_GROUP }, "PUT"), 403);
  });

  it("delete: A's group is not found, a platform group cannot be deleted", async () => {
    refused(await bob().post(`/resource/resource_group/${a.group}`, undefined, "DELETE"), 404);
    refused(await bob().post(`/resource/resource_group/${PLATFORM_GROUP}`, undefined, "DELETE"), 403);
    expect(emu.listResourceGroups().map((g) => g.rg_id)).toEqual(expect.arrayContaining([a.group, PLATFORM_GROUP]));
  });
});

describe("templates: visibility by show_user", () => {
  it("list: B sees neither A's private template nor, through a template A shares, A's group", async () => {
    const none = await bob().get("/resource/template", { spec_type: "only_cpu", template_ids: [a.template], limit: 100 });
    expect(none.status).toBe(200);
    expect(none.json.total_sum).toBe(0);
    const byGroup = await bob().get("/resource/template", { spec_type: "only_cpu", rg_id: a.group });
    expect(byGroup.json.data.map((t: { tmp_id: number }) => t.tmp_id)).toEqual([a.shared]);
    const mine = await alice().get("/resource/template", { spec_type: "only_cpu", template_ids: [a.template, a.shared] });
    expect(mine.json.data.map((t: { resource_group: { name: string } }) => t.resource_group.name)).toEqual(["alice-private-group", "alice-private-group"]);
    const shared = await bob().get("/resource/template", { spec_type: "only_cpu", template_ids: [a.shared] });
    expect(shared.json.data).toHaveLength(1);
    expect(shared.json.data[0]).toMatchObject({ tmp_id: a.shared, resource_group: null });
    refused(await bob().post(`${NB_B}/create`, notebookBody(BOB, "bob-shared", { replica_specs: { template_id: a.shared } })), 404);
  });

  it("create: B cannot add a template to A's group; the platform's groups take B's templates", async () => {
    const t = { name: "bob-template", cpu: 1, memory: 1, gpu: 0, rg_node_id: "rgn-bob", pod_type: ["job"], spec_type: "only_cpu" };
    refused(await bob().post("/resource/template", { ...t, rg_id: a.group }), 404);
    refused(
      await bob().post("/resource/template", [
        { ...t, rg_id: PLATFORM_GROUP },
        { ...t, rg_id: a.group },
      ]),
      404,
    );
    expect((await bob().post("/resource/template", { ...t, rg_id: PLATFORM_GROUP })).status).toBe(200);
  });
});
