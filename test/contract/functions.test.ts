/**
 * The data-source functions against the emulator over real HTTP, in both
 * forms, with their configuration read from the stack config (PULUMI_CONFIG)
 * as in a program.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpError } from "../../client/errors";
import * as aicp from "../../sdk";
import { programSettings, takeSettingsFrom } from "../../sdk/functions/program-client";
import { emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { PlatformWriter } from "../support/platform-writer";

const ns = emulatorCredentials.userId;

function resolve<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((done) => output.apply((v) => done(v)));
}

describe("data-source functions", () => {
  let emulator: Emulator;
  let client: PlatformWriter;
  let notebookUuid: string;

  beforeAll(async () => {
    // An hour to become Running: the setup moves the emulator's clock past it.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const config = Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value]));
    process.env.PULUMI_CONFIG = JSON.stringify(config);
    client = new PlatformWriter({ baseUrl: emulator.url, zone: "xb3", credentials: emulatorCredentials });
    const nb = await client.createNotebook({
      charge_mode: "elastic",
      duration: 3600,
      user_id: ns,
      namespace: ns,
      image: "jupyter:1",
      image_type: "official",
      name: "fn-nb",
      server_type: "jupyter",
      replica_specs: { specs: "sku-1" },
    });
    notebookUuid = nb.uuid;
    await client.createTrainingJob(ns, {
      charge_mode: "elastic",
      duration: 3600,
      name: "fn-job",
      endpoint: "tfjobs",
      image: "tf:2",
      image_type: "official",
      replica_specs: [{ replica_type: "Worker", replicas: 2 }],
    });
    emulator.clock.advance(3_600_000);
  });

  afterAll(async () => {
    delete process.env.PULUMI_CONFIG;
    await client?.close();
    await emulator?.close();
  });

  it("getResourceTemplates pages through every template, or returns one page when asked", async () => {
    const total = (await client.listTemplates({ spec_type: ["common", "only_cpu", "share_gpu"] })).totalSum!;
    const all = await aicp.getResourceTemplates({ specType: ["common", "only_cpu", "share_gpu"] });
    expect(all.templates).toHaveLength(total);
    expect(all.templates[0]).toHaveProperty("rgNodeId");
    expect(all.templates[0]).toHaveProperty("specType");
    const page = await aicp.getResourceTemplates({ limit: 3, offset: 1 });
    expect(page.templates).toHaveLength(3);
  });

  it("getResourceTemplatesOutput accepts Outputs as arguments", async () => {
    const result = await resolve(aicp.getResourceTemplatesOutput({ specType: pulumi.output(["only_cpu" as const]) }));
    expect(result.templates.length).toBeGreaterThan(0);
    expect(result.templates.every((t) => t.specType === "only_cpu")).toBe(true);
  });

  it("rejects bad arguments naming the camelCase property, before any request", async () => {
    emulator.clearRequests();
    const error = (await aicp.getResourceTemplates({ specType: ["gpu" as "common"] }).catch((e: unknown) => e)) as AicpError;
    expect(error.code).toBe("AICP_VALIDATION");
    expect(error.message).toContain("specType[0]");
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  });

  it("getTrainingPods returns the job's pods with Kubernetes keys kept, and env values (often tokens) left out", async () => {
    const { pods } = await aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "fn-job" });
    expect(pods).toHaveLength(2);
    expect(pods[0]!.status?.podIP).toBeTruthy();
    expect(pods[0]!.metadata?.namespace).toBe(ns);
    // The emulator's pods carry AICP_JOB_NAME=fn-job and two more (emulator/handlers/training.ts).
    const envs = pods.flatMap((p) => (p.spec?.containers ?? []).flatMap((c) => (c.env ?? []) as Array<Record<string, unknown>>));
    expect(envs.length).toBeGreaterThan(0);
    expect(envs.filter((e) => e.name === "AICP_JOB_NAME")).toEqual([{ name: "AICP_JOB_NAME" }, { name: "AICP_JOB_NAME" }]);
    expect(envs.every((e) => !("value" in e))).toBe(true);
  });

  it("every function's Output form is called as its Promise form is: arguments may be left out where none is required", async () => {
    const templates = await resolve(aicp.getResourceTemplatesOutput());
    expect(templates.templates.length).toBeGreaterThan(0);
    expect((await resolve(aicp.getNotebooksOutput())).notebooks.map((n) => n.name)).toContain("fn-nb");
    // uuid is optional in the platform's query: a call without one is sent (the namespace's metrics), not a TypeError.
    emulator.clearRequests();
    await aicp.getNotebookDiskMetrics().catch((e: unknown) => expect(e).toBeInstanceOf(AicpError));
    expect(emulator.requests().filter((r) => r.operation === "getNotebookDiskMetrics")).toHaveLength(1);
  });

  it("getNotebookDiskMetrics reads used, capacity and available bytes", async () => {
    const disk = await resolve(aicp.getNotebookDiskMetricsOutput({ uuid: pulumi.output(notebookUuid) }));
    expect(disk.metrics).toHaveLength(6);
    expect(disk.metrics[0]).toHaveProperty("metricName");
    expect(disk.usedBytes! + disk.availableBytes!).toBe(disk.capacityBytes);
  });

  it("getNotebooks lists with the documented filters", async () => {
    expect((await aicp.getNotebooks({ name: "fn-" })).notebooks.map((n) => n.uuid)).toEqual([notebookUuid]);
    expect((await aicp.getNotebooks({ status: ["Stopped"] })).notebooks).toEqual([]);
    const [listed] = (await aicp.getNotebooks({ status: ["Running"] })).notebooks;
    expect(listed!.servers!.length).toBeGreaterThan(0);
    expect(listed!.servers!.every((s) => s.password === undefined)).toBe(true);
  });

  it("getNotebookServers reads the servers and their passwords through the notebook's own route, in one request", async () => {
    emulator.clearRequests();
    const { servers } = await aicp.getNotebookServers({ uuid: notebookUuid });
    const held = emulator.listNotebooks().find((n) => n.uuid === notebookUuid)!;
    const jupyter = servers.find((s) => s.serverType === "jupyter");
    expect(jupyter).toMatchObject({ targetPort: 8888, status: true });
    expect(jupyter!.password).toBe((held.servers as Array<{ password: string }>)[0]!.password);
    expect(
      emulator
        .requests()
        .filter((r) => r.operation !== "admin")
        .map((r) => r.operation),
    ).toEqual(["getNotebookServers"]);
  });

  it("getNotebookServersOutput marks every password secret", async () => {
    const result = await resolve(aicp.getNotebookServersOutput({ uuid: notebookUuid }));
    const password = result.servers.find((s) => s.serverType === "jupyter")!.password!;
    expect(await pulumi.isSecret(password)).toBe(true);
  });

  it("getNotebookServers names the notebook when it does not exist", async () => {
    const error = (await aicp.getNotebookServers({ uuid: "nb-doesnotexist" }).catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.status).toBe(404);
    expect(error.message).toContain("nb-doesnotexist");
  });

  it("getNotebooks writes the platform's times with its zone, as the Notebook resource does", async () => {
    // The stack config is read once per process; the plugin's way of giving settings stands in for aicp:platformTimeZone.
    const settings = programSettings();
    emulator.setDialect({ bareTimeZone: "+08:00" });
    takeSettingsFrom(() => ({ ...settings, platformTimeZone: "+08:00" }));
    try {
      await client.createNotebook({
        charge_mode: "elastic",
        duration: 3600,
        user_id: ns,
        namespace: ns,
        image: "jupyter:1",
        image_type: "official",
        name: "fn-zoned",
        server_type: "jupyter",
        replica_specs: { specs: "sku-1" },
        stop_time: "2030-12-31T18:00:00Z",
      });
      const [zoned] = (await aicp.getNotebooks({ name: "fn-zoned" })).notebooks;
      expect(zoned!.stopTime).toBe("2031-01-01T02:00:00+08:00");
      expect(zoned!.createdAt).toMatch(/\+08:00$/);
    } finally {
      emulator.setDialect({ bareTimeZone: "UTC" });
      takeSettingsFrom(() => settings);
    }
  });

  it("getNotebooks leaves out env values (often tokens) and keeps their names", async () => {
    await client.createNotebook({
      charge_mode: "elastic",
      duration: 3600,
      user_id: ns,
      namespace: ns,
      image: "jupyter:1",
      image_type: "official",
      name: "fn-envs",
      server_type: "jupyter",
      replica_specs: { specs: "sku-1" },
      envs: [{ name: "API_TOKEN", value: "tok-5ecret-value" }],
    });
    const { notebooks } = await aicp.getNotebooks({ name: "fn-envs" });
    expect(notebooks.map((n) => n.envs)).toEqual([[{ name: "API_TOKEN" }]]);
    expect(JSON.stringify(notebooks)).not.toContain("tok-5ecret-value");
  });
});
