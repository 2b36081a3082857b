/**
 * The client against the emulator over real HTTP: each operation returns the
 * documented fields, and each fault kind gets the documented treatment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import type { AttemptEvent } from "../../client/transport";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { PlatformWriter } from "../support/platform-writer";

const ns = emulatorCredentials.userId;
const notebookBody = {
  charge_mode: "elastic" as const,
  duration: 3600,
  user_id: emulatorCredentials.userId,
  namespace: ns,
  image: "jupyter/base-notebook:latest",
  image_type: "official" as const,
  name: "contract-nb",
  server_type: "jupyter" as const,
  replica_specs: { specs: "sku-gpu-1", custom_gpu: 1, custom_gpu_list: ["0"] },
  volume_specs: [{ file_set: "data", mount_path: "/data", volume_type: "pfs", permission: "rw" as const }],
};

describe("AICP client against the emulator", () => {
  let emulator: Emulator;
  let client: PlatformWriter;
  const attempts: AttemptEvent[] = [];

  const makeClient = (overrides: Partial<ConstructorParameters<typeof AicpClient>[0]> = {}) =>
    new PlatformWriter({
      baseUrl: emulator.url,
      zone: "xb3",
      credentials: { accessKeyId: emulatorCredentials.accessKeyId, secretAccessKey: emulatorCredentials.secretAccessKey },
      retryBaseDelayMs: 10,
      timeoutMs: 2000,
      onAttempt: (e) => attempts.push(e),
      ...overrides,
    });

  beforeAll(async () => {
    // An hour to become Running: tests move the emulator's clock past it.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    client = makeClient();
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearRequests();
    attempts.length = 0;
  });

  describe("the five operations of the spec", () => {
    it("lists resource templates with the documented fields, paging through all of them", async () => {
      const page = await client.listTemplates({ limit: 5 });
      expect(page.items).toHaveLength(5);
      expect(page.totalSum).toBeGreaterThan(5);
      const first = page.items[0]!;
      for (const field of ["name", "cpu", "memory", "gpu", "rg_id", "rg_node_id", "spec_type", "tmp_id", "resource_group", "show_user"]) {
        expect(first).toHaveProperty(field);
      }
      const all = await client.listAllTemplates({}, { pageSize: 4 });
      expect(all).toHaveLength(page.totalSum!);
      expect(new Set(all.map((t) => t.tmp_id)).size).toBe(all.length);
      const cpuOnly = await client.listAllTemplates({ spec_type: ["only_cpu"] });
      expect(cpuOnly.length).toBeGreaterThan(0);
      expect(cpuOnly.every((t) => t.spec_type === "only_cpu" && Number(t.gpu) === 0)).toBe(true);
    });

    it("creates a resource group and returns it with the documented fields", async () => {
      const group = await client.createResourceGroup({
        name: "contract",
        description: "d",
        sku_id: "sku-1",
        pod_type: ["infer", "instance"],
        customize_enable: 1,
      });
      expect(group.rg_id).toMatch(/^rg-/);
      expect(group).toMatchObject({ name: "contract", description: "d", pod_type: ["infer", "instance"], customize_enable: 1 });
      expect(group.status).toBeTruthy();
      expect(group.created_at).toBeTruthy();
      expect(await client.getResourceGroup(group.rg_id)).toMatchObject({ rg_id: group.rg_id, name: "contract" });
      await client.updateResourceGroup({ rg_id: group.rg_id, name: "renamed", description: "d2", pod_type: ["job"], customize_enable: 0 });
      expect(await client.getResourceGroup(group.rg_id)).toMatchObject({ name: "renamed", description: "d2", pod_type: ["job"], customize_enable: 0 });
      await client.deleteResourceGroup(group.rg_id);
      expect(await client.getResourceGroup(group.rg_id)).toBeUndefined();
    });

    it("creates a notebook in state Pending with the documented fields, then it runs", async () => {
      const nb = await client.createNotebook(notebookBody);
      expect(nb.uuid.length).toBeLessThanOrEqual(36);
      expect(nb).toMatchObject({ status: "Pending", name: "contract-nb", image: notebookBody.image, server_type: "jupyter", namespace: ns });
      expect(nb.replica_specs).toMatchObject({ replicas: 1, custom_gpu: 1, custom_gpu_list: ["0"] });
      expect(nb.volume_specs![0]).toMatchObject({ file_set: "data", mount_path: "/data", quota: 0, notebook_uuid: nb.uuid });
      expect(nb.created_at).not.toMatch(/Z$/);
      emulator.clock.advance(3_600_000);
      const running = await client.findNotebook(ns, nb.uuid);
      expect(running?.status).toBe("Running");
      expect(running?.servers?.[0]?.status).toBe(true);
    });

    it("reads the six disk metrics of a running notebook", async () => {
      const nb = await client.createNotebook({ ...notebookBody, name: "metrics-nb" });
      emulator.clock.advance(3_600_000);
      const metrics = await client.getNotebookDiskMetrics({ namespace: ns, uuid: nb.uuid });
      expect(metrics.map((m) => m.metric_name).sort()).toEqual(
        [
          "notebook_zfs_pvc_available_bytes",
          "notebook_zfs_pvc_capacity_bytes",
          "notebook_zfs_used_bytes",
          "pod_system_disk_available_bytes",
          "pod_system_disk_limit_bytes",
          "pod_system_disk_usage_bytes",
        ].sort(),
      );
      expect(metrics.every((m) => m.resultType === "vector")).toBe(true);
      expect(metrics.every((m) => (m.result ?? []).length > 0)).toBe(true);
    });

    it("lists the pods of a training job, one per replica, including a non-ASCII job name", async () => {
      for (const name of ["resnet-train", "训练任务"]) {
        await client.createTrainingJob(ns, {
          charge_mode: "elastic",
          duration: 3600,
          name,
          endpoint: "tfjobs",
          image: "tensorflow/tensorflow:2.16",
          image_type: "official",
          replica_specs: [
            { replica_type: "Worker", replicas: 2, custom_cpu: 4, custom_gpu: 1 },
            { replica_type: "PS", replicas: 1, custom_cpu: 2 },
          ],
        });
        const pods = await client.listTrainingPods({ namespace: ns, endpoint: "tfjobs", train_name: name });
        expect(pods).toHaveLength(3);
        const pod = pods[0]!;
        expect(pod.metadata?.namespace).toBe(ns);
        expect(pod.status?.phase).toBe("Running");
        expect(pod.status?.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
        expect(pod.spec?.containers?.[0]?.resources?.limits).toHaveProperty("cpu");
        expect(pod.status?.containerStatuses?.[0]?.state?.running?.startedAt).toMatch(/Z$/);
      }
    });
  });

  describe("failures", () => {
    it("retries a GET on 503 and succeeds when the fault clears", async () => {
      emulator.addFault({ kind: "http", status: 503, operation: "listTemplates", count: 2 });
      const page = await client.listTemplates({ limit: 1 });
      expect(page.items).toHaveLength(1);
      expect(attempts.map((a) => a.status)).toEqual([503, 503, 200]);
    });

    it("gives up on a GET after the bounded number of attempts, naming operation, status and request id", async () => {
      emulator.addFault({ kind: "http", status: 500, operation: "listTemplates" });
      const error = await client.listTemplates({ limit: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AicpError);
      expect((error as AicpError).code).toBe("AICP_HTTP");
      expect((error as AicpError).message).toMatch(/listTemplates \(GET \/aicp\/resource\/template\) failed: HTTP 500.*request id req-/);
      expect(attempts).toHaveLength(4);
    });

    it("does not retry a create blindly after a dropped connection, and says the outcome is unknown", async () => {
      emulator.addFault({ kind: "drop", operation: "createNotebook", count: 1 });
      const error = (await client.createNotebook({ ...notebookBody, name: "dropped" }).catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_NETWORK");
      expect(error.outcomeUnknown).toBe(true);
      expect(attempts.filter((a) => a.operation === "createNotebook")).toHaveLength(1);
    });

    it("retries a create on 429 with Retry-After, since the platform did not process it", async () => {
      emulator.addFault({ kind: "http", status: 429, retryAfterSeconds: 0, operation: "createNotebook", count: 1 });
      const nb = await client.createNotebook({ ...notebookBody, name: "after-429" });
      expect(nb.name).toBe("after-429");
      expect(attempts.filter((a) => a.operation === "createNotebook").map((a) => a.status)).toEqual([429, 200]);
    });

    it("does not retry a create on 500", async () => {
      emulator.addFault({ kind: "http", status: 500, operation: "createNotebook", count: 1 });
      const error = (await client.createNotebook({ ...notebookBody, name: "after-500" }).catch((e: unknown) => e)) as AicpError;
      expect(error.status).toBe(500);
      expect(attempts.filter((a) => a.operation === "createNotebook")).toHaveLength(1);
    });

    it("turns ret_code != 0 under HTTP 200 into an error with the request id", async () => {
      emulator.addFault({ kind: "retCode", retCode: 2101, message: "quota exceeded", operation: "createResourceGroup", count: 1 });
      const error = (await client
        .createResourceGroup({ name: "g", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 })
        .catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_RET_CODE");
      expect(error.retCode).toBe(2101);
      expect(error.platformMessage).toBe("quota exceeded");
      expect(error.requestId).toMatch(/^req-/);
      expect(error.message).toContain(error.requestId!);
    });

    it("quotes the first bytes of a body that is not the envelope", async () => {
      emulator.addFault({ kind: "malformed", operation: "listNotebooks" });
      const error = (await client.listNotebooks(ns).catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_MALFORMED");
      expect(error.message).toContain("502 Bad Gateway");
    });

    it("times out a slow answer and retries it as a read", async () => {
      const fast = makeClient({ timeoutMs: 150 });
      emulator.addFault({ kind: "latency", latencyMs: 400, operation: "listNotebooks", count: 1 });
      const page = await fast.listNotebooks(ns);
      expect(Array.isArray(page.items)).toBe(true);
      expect(attempts.filter((a) => a.operation === "listNotebooks").map((a) => a.error ?? a.status)).toEqual(["timeout", 200]);
      await fast.close();
    });

    it("is refused with a wrong secret, naming the credentials to check", async () => {
      const wrong = makeClient({ credentials: { accessKeyId: emulatorCredentials.accessKeyId, secretAccessKey: "wrong" } });
      const error = (await wrong.listTemplates().catch((e: unknown) => e)) as AicpError;
      expect(error.status).toBe(401);
      expect(error.message).toContain("aicp:secretAccessKey");
      expect(error.message).not.toContain("wrong");
      await wrong.close();
    });

    it("does not take a 404 from a wrong assumed route as 'gone', and explains the override", async () => {
      const group = await client.createResourceGroup({ name: "kept", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 });
      const moved = makeClient({ routes: { deleteResourceGroup: "DELETE /no/such/route/{rg_id}" } });
      const error = (await moved.deleteResourceGroup(group.rg_id).catch((e: unknown) => e)) as AicpError;
      expect(error).toBeInstanceOf(AicpError);
      expect(error.code).toBe("AICP_ROUTE");
      expect(error.message).toContain("pulumi config set --path 'aicp:routes.deleteResourceGroup'");
      // The user configured this route: it is called that, not "assumed".
      expect(error.message).toContain("is the one configured in aicp:routes");
      expect(error.message).not.toContain("assumed");
      expect(await client.getResourceGroup(group.rg_id)).toMatchObject({ rg_id: group.rg_id });
      await moved.close();
    });

    it("confirms through the list that a group is gone when get answers 404", async () => {
      const brokenGet = makeClient({ routes: { getResourceGroup: "GET /no/such/route/{rg_id}" } });
      const group = await client.createResourceGroup({ name: "listed", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 });
      expect(await brokenGet.getResourceGroup(group.rg_id)).toMatchObject({ rg_id: group.rg_id, name: "listed" });
      expect(await brokenGet.getResourceGroup("rg-missing")).toBeUndefined();
      const bothBroken = makeClient({ routes: { getResourceGroup: "GET /nope/{rg_id}", listResourceGroups: "GET /nope" } });
      expect(((await bothBroken.getResourceGroup("rg-missing").catch((e: unknown) => e)) as AicpError).code).toBe("AICP_ROUTE");
      await brokenGet.close();
      await bothBroken.close();
    });

    it("rejects bad input before sending anything", async () => {
      const error = (await client.createNotebook({ ...notebookBody, duration: 5 }).catch((e: unknown) => e)) as AicpError;
      expect(error.code).toBe("AICP_VALIDATION");
      expect(error.message).toContain("duration: must be 3600 when charge_mode is elastic");
      expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
    });
  });
});
