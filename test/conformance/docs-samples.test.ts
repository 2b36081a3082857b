/**
 * The docs' request and response samples (test/fixtures/docs) as fixtures both
 * sides must handle:
 * - the emulator accepts each request sample, signed as a public client signs
 *   it (the samples are unsigned curl lines under /qai/aicp, with placeholder
 *   ids that are replaced by real ones);
 * - the client reads each response sample, served over real HTTP by a stub.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { signedRequest } from "../support/signed-request";

interface DocsSample {
  operation: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  response: Record<string, unknown>;
}

const dir = join(__dirname, "..", "fixtures", "docs");
const samples: DocsSample[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as DocsSample);
const user = emulatorCredentials.userId;

describe("the docs' samples", () => {
  it("cover the operations the provider uses to change notebooks and groups", () => {
    expect(samples.map((s) => s.operation).sort()).toEqual(
      ["createResourceGroup", "getNotebookServers", "setDeleteTime", "setStopTime", "stopNotebooks", "updateResourceGroup"].sort(),
    );
  });

  describe("requests, accepted by the emulator", () => {
    let emulator: Emulator;

    beforeAll(async () => {
      emulator = await startTestEmulator({ notebookReadyDelayMs: 20, dialect: { prefixes: "both" } });
    });
    afterAll(() => emulator?.close());

    /** A notebook and a group of its own for each sample (the set_delete_time sample's time is past, so it removes its notebook). */
    const objects = async () => {
      const [uuid] = emulator.seedNotebooks({ namespace: user, count: 1, namePrefix: "docs" });
      const group = await signedRequest(emulator.url, {
        method: "POST",
        path: "/aicp/resource/resource_group",
        query: { zone: "xb3" },
        body: { name: "docs", description: "", sku_id: "sku-1", pod_type: ["instance"], customize_enable: 1 },
      });
      return { uuid: uuid!, rg_id: String((group.json as { data: { rg_id: string } }).data.rg_id) };
    };

    /** The sample with its placeholders (namespace, notebook and group ids) replaced by objects that exist. */
    const concrete = (sample: DocsSample, ids: { uuid: string; rg_id: string }) => {
      const path = sample.path.replace(/namespaces\/[^/]+/, `namespaces/${user}`).replace(/nb-[a-z0-9]+/, ids.uuid!);
      const body = sample.body && { ...sample.body };
      if (body && "uuid" in body) body.uuid = ids.uuid;
      if (body && "uuids" in body) body.uuids = [ids.uuid];
      if (body && "rg_id" in body) body.rg_id = ids.rg_id;
      return { path, body };
    };

    for (const sample of samples) {
      it(`${sample.operation}: ${sample.method} as the docs show it`, async () => {
        const { path, body } = concrete(sample, await objects());
        const answer = await signedRequest(emulator.url, { method: sample.method, path, query: { ...sample.query, zone: "xb3" }, body });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.json).toMatchObject({ ret_code: 0 });
      });
    }
  });

  describe("responses, read by the client", () => {
    let server: Server;
    let client: AicpClient;
    let answer: Record<string, unknown> = {};

    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      client = new AicpClient({
        baseUrl: url,
        pathPrefix: "/qai/aicp",
        zone: "xb3",
        credentials: { accessKeyId: "AK", secretAccessKey: "SK" },
        maxAttempts: 1,
      });
    });
    afterAll(async () => {
      await client?.close();
      server?.close();
    });

    const sample = (operation: string) => samples.find((s) => s.operation === operation)!;

    it("reads set_stop_time (data an object), set_delete_time and stop (data an array)", async () => {
      for (const [operation, call] of [
        ["setStopTime", () => client.setStopTime(user, "nb-1", "2030-01-01T18:00:00Z")],
        ["setDeleteTime", () => client.setDeleteTime(user, "nb-1", "2030-01-01T18:00:00Z")],
        ["stopNotebooks", () => client.stopNotebooks(user, ["nb-1"])],
      ] as const) {
        answer = sample(operation).response;
        await expect(call(), operation).resolves.toBeUndefined();
      }
    });

    it("reads update resource group", async () => {
      answer = sample("updateResourceGroup").response;
      await expect(client.updateResourceGroup({ rg_id: "rg-1", name: "g", description: "", pod_type: ["job"], customize_enable: 1 })).resolves.toBeUndefined();
    });

    it("reads the notebook servers sample, password null included", async () => {
      answer = sample("getNotebookServers").response;
      const servers = await client.getNotebookServers({ namespace: user, uuid: "nb-eiguqichl5hc" });
      expect(servers).toEqual([expect.objectContaining({ server_type: "jupyter", target_port: 8888, status: true, password: null })]);
    });

    it("reads the create resource group sample, pod_type an empty string included", async () => {
      answer = sample("createResourceGroup").response;
      const group = await client.createResourceGroup({ name: "g", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 });
      expect(group).toMatchObject({ rg_id: "string", name: "", pod_type: [], created_at: "2025-03-27T02:26:02.082Z" });
    });

    it("refuses a create answer without the new group's id, and says the group may exist", async () => {
      const { rg_id: _id, ...withoutId } = sample("createResourceGroup").response.data as Record<string, unknown>;
      answer = { ...sample("createResourceGroup").response, data: withoutId };
      const error = (await client
        .createResourceGroup({ name: "g", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 })
        .catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_MALFORMED");
      expect(error.outcomeUnknown).toBe(true);
    });
  });
});
