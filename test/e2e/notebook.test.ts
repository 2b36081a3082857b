/**
 * The product as a user drives it: a program with a group, a notebook on a GPU
 * template, disk metrics and training pods as outputs, through the real
 * engine against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createTrainingJob, emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { smallestGpuTemplate } from "../support/fixtures";
import { changeCount, createTestStack, passphrase, recording, type TestStack } from "../support/pulumi";

const registryPassword = "registry-pass-7f3a";
const user = emulatorCredentials.userId;

describe("Notebook through the real pulumi engine", () => {
  let emulator: Emulator;
  let target: TestStack;
  const settings: { stopTime: string; serverType: "jupyter" | "code_server" | "rstudio"; description: string } = {
    stopTime: "2030-01-01T18:00:00Z",
    serverType: "jupyter",
    description: "ml team",
  };
  const ownNotebooks = () => emulator.listNotebooks().filter((n) => n.namespace === user);
  const ownGroups = () => emulator.listResourceGroups().filter((g) => g.user_id === user);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await createTrainingJob(emulator, "bert-finetune", [
      { replica_type: "Master", replicas: 1 },
      { replica_type: "Worker", replicas: 2 },
    ]);
    target = await createTestStack({
      name: "notebook",
      config: emulatorConfig(emulator),
      program: (aicp, pulumi) => {
        const group = new aicp.ResourceGroup("team", { skuId: "sku-gpu", podTypes: ["instance", "job"], description: settings.description });
        const template = aicp.getResourceTemplatesOutput({ specType: ["common"] }).apply(smallestGpuTemplate);
        const notebook = new aicp.Notebook("research", {
          chargeMode: "elastic",
          duration: 3600,
          image: "registry.example.com/team/jupyter:1.0",
          imageType: "custom",
          serverType: settings.serverType,
          customImageSecret: { hasAuth: true, username: "robot", password: registryPassword },
          stopTime: settings.stopTime,
          replicaSpecs: { specs: template.rgNodeId, rgId: template.rgId, customGpu: 1, templateId: template.tmpId },
          volumeSpecs: [{ fileSet: "datasets", mountPath: "/data", volumeType: "pfs", permission: "ro" }],
        });
        const disk = aicp.getNotebookDiskMetricsOutput({ uuid: notebook.uuid });
        const pods = aicp.getTrainingPodsOutput({ endpoint: "pytorchjobs", trainName: "bert-finetune" });
        return {
          groupId: group.rgId,
          templateGpu: template.gpuName,
          notebookId: notebook.id,
          status: notebook.status,
          namespace: notebook.namespace,
          wsUrl: notebook.wsUrl,
          servers: notebook.servers,
          diskUsedBytes: disk.usedBytes,
          diskCapacityBytes: disk.capacityBytes,
          podNames: pods.pods.apply((ps) => ps.map((p) => p.metadata?.name)),
          pulumiVersion: pulumi.runtime.getProject() ? "ok" : "none",
        };
      },
    });
  }, 120_000);

  afterAll(async () => {
    await target?.dispose();
    await emulator?.close();
  });

  it("creates group and notebook and exports the values the emulator holds", async () => {
    const up = await target.stack.up(recording(target));
    expect(up.summary.result).toBe("succeeded");
    const outputs = await target.stack.outputs();
    const [notebook] = ownNotebooks();
    expect(ownNotebooks()).toHaveLength(1);
    expect(outputs.notebookId!.value).toBe(notebook!.uuid);
    expect(outputs.status!.value).toBe("Running");
    expect(notebook!.status).toBe("Running");
    expect(outputs.namespace!.value).toBe(user);
    expect(outputs.wsUrl!.value).toBe(notebook!.ws_url);
    expect(outputs.groupId!.value).toBe(ownGroups()[0]!.rg_id);
    expect(outputs.servers!.secret).toBe(true);
    expect(outputs.diskUsedBytes!.value).toBeGreaterThan(0);
    expect(outputs.diskCapacityBytes!.value).toBeGreaterThan(outputs.diskUsedBytes!.value);
    expect(outputs.podNames!.value).toHaveLength(3);
    expect(String(outputs.templateGpu!.value).length).toBeGreaterThan(0);
    expect((notebook!.replica_specs as Record<string, unknown>).custom_gpu).toBe(1);
  }, 180_000);

  it("reports no changes on a second up and sends no write request", async () => {
    emulator.clearRequests();
    const up = await target.stack.up(recording(target));
    expect(changeCount(up.summary.resourceChanges)).toBe(0);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
  }, 180_000);

  it("keeps the secret key, the registry password and server passwords out of the state on disk", async () => {
    const onDisk = target.stateFiles();
    const serverPasswords = ownNotebooks().flatMap((n) => (n.servers as Array<{ password?: string }>).map((s) => s.password).filter(Boolean));
    expect(serverPasswords.length).toBeGreaterThan(0);
    expect(onDisk).toContain(String(ownNotebooks()[0]!.uuid));
    for (const secret of [emulatorCredentials.secretAccessKey, registryPassword, passphrase, ...serverPasswords]) {
      expect(onDisk).not.toContain(secret);
    }
  });

  it("updates stopTime in place and the group description in place", async () => {
    settings.stopTime = "2030-06-01T20:00:00Z";
    settings.description = "ml team, second floor";
    const uuid = ownNotebooks()[0]!.uuid;
    const up = await target.stack.up(recording(target));
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(up.summary.resourceChanges?.replace ?? 0).toBe(0);
    expect(ownNotebooks()[0]).toMatchObject({ uuid });
    expect(String(ownNotebooks()[0]!.stop_time)).toMatch(/^2030-06-01T20:00:00/);
    // The platform keeps the provider's ownership mark after the text (provider/ownership.ts).
    expect(ownGroups()[0]!.description).toMatch(/^ml team, second floor \[pulumi-aicp [0-9a-f]{32}\]$/);
  }, 180_000);

  it("replaces the notebook when serverType changes", async () => {
    const before = ownNotebooks()[0]!.uuid;
    settings.serverType = "code_server";
    const up = await target.stack.up(recording(target));
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = ownNotebooks();
    expect(after).toHaveLength(1);
    expect(after[0]!.uuid).not.toBe(before);
    expect(after[0]!.server_type).toBe("code_server");
  }, 180_000);

  it("drops a notebook deleted behind Pulumi's back on refresh, and recreates it on the next up", async () => {
    const gone = ownNotebooks()[0]!.uuid as string;
    expect(emulator.deleteNotebook(gone)).toBe(true);
    const refresh = await target.stack.refresh(recording(target));
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await target.stack.up(recording(target));
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(ownNotebooks()).toHaveLength(1);
    expect(ownNotebooks()[0]!.uuid).not.toBe(gone);
  }, 180_000);

  it("destroys everything of the stack", async () => {
    const destroy = await target.stack.destroy(recording(target));
    expect(destroy.summary.result).toBe("succeeded");
    expect(ownNotebooks()).toEqual([]);
    expect(ownGroups()).toEqual([]);
  }, 180_000);
});
