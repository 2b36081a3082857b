/**
 * The client against every plausible platform: the
 * emulator switches one unknown at a time, and the client must work with only
 * the configuration a user sets from the README (keys, user id, zone), paying
 * at most one extra request per unknown per process.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_DIALECT, type Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

const ns = emulatorCredentials.userId;
const credentials = { accessKeyId: emulatorCredentials.accessKeyId, secretAccessKey: emulatorCredentials.secretAccessKey };
const notebookBody = (name: string, extra: Record<string, unknown> = {}) => ({
  charge_mode: "elastic" as const,
  duration: 3600,
  user_id: ns,
  namespace: ns,
  image: "jupyter/base-notebook:latest",
  image_type: "official" as const,
  name,
  server_type: "jupyter" as const,
  replica_specs: { specs: "sku-gpu-1", custom_gpu: 1 },
  ...extra,
});

describe("the client on every dialect", () => {
  let emulator: Emulator;
  const clients: AicpClient[] = [];
  /** A fresh client, as a new provider process has: nothing learned yet. */
  const fresh = (extra: Partial<ConstructorParameters<typeof AicpClient>[0]> = {}) => {
    const c = new AicpClient({ baseUrl: emulator.url, zone: "xb3", credentials, retryBaseDelayMs: 5, ...extra });
    clients.push(c);
    return c;
  };
  const api = () => emulator.requests().filter((r) => r.operation !== "admin");

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 20 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.setDialect({ ...DEFAULT_DIALECT, absentOperations: [] });
    emulator.clearRequests();
  });

  it("pays nothing on the default dialect", async () => {
    const client = fresh();
    await client.listTemplates({ limit: 1 });
    const nb = await client.createNotebook(notebookBody("default-dialect"));
    await client.stopNotebooks(ns, [nb.uuid]);
    expect(api().map((r) => r.status)).toEqual([200, 200, 200]);
    expect(client.dialect()).toMatchObject({ pathPrefix: { value: "/aicp", known: true }, signatureBody: { value: "empty", known: true }, extraRequests: 0 });
  });

  it("finds /qai/aicp after one gateway 404, and keeps it for every later request, ten at once included", async () => {
    emulator.setDialect({ prefixes: "qai" });
    const client = fresh();
    await Promise.all(Array.from({ length: 10 }, () => client.listTemplates({ limit: 1 })));
    await client.createNotebook(notebookBody("qai-only"));
    const gateway = api().filter((r) => r.status === 404);
    expect(gateway).toHaveLength(1);
    expect(gateway[0]!.path.startsWith("/aicp/")).toBe(true);
    expect(
      api()
        .filter((r) => r.status === 200)
        .every((r) => r.path.startsWith("/qai/aicp/")),
    ).toBe(true);
    expect(client.dialect()).toMatchObject({ pathPrefix: { value: "/qai/aicp", known: true }, extraRequests: 1 });
  });

  it("never switches a configured prefix", async () => {
    emulator.setDialect({ prefixes: "qai" });
    const error = (await fresh({ pathPrefix: "/aicp" })
      .listTemplates({ limit: 1 })
      .catch((e: unknown) => e)) as AicpError;
    expect(error.status).toBe(404);
    expect(api()).toHaveLength(1);
  });

  it("signs writes with the MD5 of the body after one refusal, never sending a create twice, and remembers it", async () => {
    emulator.setDialect({ signatureBody: "body" });
    const client = fresh();
    await client.createNotebook(notebookBody("body-md5"));
    await client.createNotebook(notebookBody("body-md5-2"));
    const creates = api().filter((r) => r.operation === "createNotebook");
    expect(creates.map((r) => r.status)).toEqual([401, 200, 200]);
    expect(emulator.listNotebooks().filter((n) => String(n.name).startsWith("body-md5"))).toHaveLength(2);
    expect(creates[1]!.auth?.bodyHash).toBe("body");
    expect(client.dialect()).toMatchObject({ signatureBody: { value: "body", known: true }, extraRequests: 1 });
  });

  it("does not take a failure in front of the signature check (a 500) as proof of the convention", async () => {
    emulator.setDialect({ signatureBody: "body" });
    const client = fresh();
    const nb = await client.createNotebook(notebookBody("before-500"));
    emulator.addFault({ kind: "http", status: 500, operation: "stopNotebooks", count: 1 });
    const fresher = fresh();
    await fresher.stopNotebooks(ns, [nb.uuid]);
    expect(fresher.dialect().signatureBody).toEqual({ value: "body", known: true });
    await fresher.startNotebooks(ns, { uuids: [nb.uuid], sku_id: "sku-gpu-1" });
    expect(
      api()
        .filter((r) => r.operation === "startNotebooks")
        .map((r) => r.status),
    ).toEqual([200]);
  });

  it("sends reads side by side while the write convention is still unknown", async () => {
    const client = fresh();
    await client.listTemplates({ limit: 1 });
    const admin = (method: string) =>
      fetch(`${emulator.url}/__emulator/connections`, { method }).then((r) => r.json()) as Promise<{ data: { peakInFlight: number } }>;
    await admin("DELETE");
    emulator.addFault({ kind: "latency", latencyMs: 100, operation: "listTemplates" });
    await Promise.all(Array.from({ length: 8 }, () => client.listTemplates({ limit: 1 })));
    emulator.clearFaults();
    expect(client.dialect().signatureBody.known).toBe(false);
    expect((await admin("GET")).data.peakInFlight).toBeGreaterThanOrEqual(4);
  });

  it("reports wrong keys on a write after trying both conventions once each", async () => {
    const client = fresh({ credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: "wrong-secret" } });
    const error = (await client.stopNotebooks(ns, ["nb-x"]).catch((e: unknown) => e)) as AicpError;
    expect(error.status).toBe(401);
    expect(error.message).toContain("aicp:secretAccessKey");
    expect(error.message).not.toContain("wrong-secret");
    expect(api()).toHaveLength(2);
  });

  it("sends the zone on every request, and says which key to set when the platform requires one", async () => {
    await fresh().listTemplates({ limit: 1 });
    expect(api()[0]!.query?.zone).toBe("xb3");
    const error = (await fresh({ zone: undefined })
      .listTemplates({ limit: 1 })
      .catch((e: unknown) => e)) as AicpError;
    expect(error.status).toBe(400);
    expect(error.message).toContain("aicp:zone");
  });

  describe("with 250 notebooks in the namespace", () => {
    let uuids: string[] = [];
    beforeAll(() => {
      for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
      uuids = emulator.seedNotebooks({ namespace: ns, count: 250, namePrefix: "paged" });
    });

    for (const [what, dialect] of [
      ["counts the page length, no total_sum", { counts: "page", totalSum: false }],
      ["counts the page length, total_sum", { counts: "page", totalSum: true }],
      ["counts the total", { counts: "total", totalSum: false }],
      ["counts the total, pages capped at 50", { counts: "total", totalSum: false, maxPageSize: 50 }],
    ] as const) {
      it(`lists all 250 and finds the last one when ${what}`, async () => {
        emulator.setDialect(dialect);
        const client = fresh();
        const all = await client.listAllNotebooks(ns);
        expect(new Set(all.map((n) => n.uuid))).toEqual(new Set(uuids));
        expect((await client.findNotebook(ns, uuids[249]!))?.uuid).toBe(uuids[249]);
        expect(api().every((r) => Number(r.query?.limit) <= 100)).toBe(true);
      });
    }
  });

  it("learns a +08:00 platform's zone from the create answer, and no bare value is read as UTC after that", async () => {
    emulator.setDialect({ bareTimeZone: "+08:00" });
    const client = fresh();
    const nb = await client.createNotebook(notebookBody("china-time", { stop_time: "2030-01-01T18:00:00Z" }));
    expect(nb.stop_time).toBe("2030-01-02T02:00:00");
    expect(client.timeZone.offset).toBe(480);
    expect(client.timeZone.normalise(nb.stop_time)).toBe("2030-01-02T02:00:00+08:00");
  });

  it("reads single-notebook writes answered as an object or an array", async () => {
    const client = fresh();
    const nb = await client.createNotebook(notebookBody("shapes"));
    for (const shape of ["object", "array"] as const) {
      emulator.setDialect({ singleWriteData: shape });
      await client.setStopTime(ns, nb.uuid, "2030-01-01T18:00:00Z");
      await client.changeImage(ns, { uuid: nb.uuid, image: "jupyter/base-notebook:2", image_type: "official" });
    }
    expect(api().filter((r) => r.status !== 200)).toEqual([]);
  });

  it("reads envs sent as a JSON string as the list it holds", async () => {
    emulator.setDialect({ envsAsString: true });
    const client = fresh();
    await client.createNotebook(notebookBody("envs-string", { envs: [{ name: "MODE", value: "debug" }] }));
    const [listed] = await client.findNotebooksByName(ns, "envs-string");
    expect(listed?.envs).toEqual([{ name: "MODE", value: "debug" }]);
  });
});
