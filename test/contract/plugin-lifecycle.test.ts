/**
 * The provider plugin's lifecycle as a YAML or Python program drives it,
 * through the in-process engine (the plugin's gRPC service, one fresh copy
 * per command): one stack goes through create with function calls, an
 * in-place update with a detailed diff, refresh, `pulumi import`, a second
 * provider instance acting as another user, the import option, and destroy.
 * test/e2e/plugin-yaml.test.ts keeps the smoke through the real CLI and the
 * YAML language host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createTrainingJob, emulatorCredentials, requestsBeyondSettingsCheck, startTestEmulator } from "../support/emulator";
import { ops, research } from "../support/engine/notebook-stack";
import { emulatorStack } from "../support/engine/programs";
import { plain, secret, type Declared, type InProcessStack, type Program } from "../support/engine/stack";

const other = { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" };
const envSecret = "token-never-in-plain-text";

/** The program at each step: `extra` adds resources, `providers` explicit provider instances. */
function program(description: string, stopTime: string | undefined, extra: Declared[] = [], providers?: Program["providers"]): Program {
  return {
    providers,
    resources: [
      { kind: "ResourceGroup", name: "team", inputs: { skuId: "sku-1", podTypes: ["job", "instance"], description } },
      // The notebook `research` of the in-process cases, named nb, with a secret env.
      { ...research({ envs: [{ name: "TOKEN", value: secret(envSecret) }], ...(stopTime ? { stopTime } : {}) }).resources[0]!, name: "nb" },
      ...extra,
    ],
    outputs: async (outs, invoke) => ({
      rgId: outs.team?.rgId,
      groupName: outs.team?.name,
      uuid: outs.nb?.uuid,
      status: outs.nb?.status,
      templates: (await invoke("getResourceTemplates", { limit: 3 })).templates,
      pods: (await invoke("getTrainingPods", { endpoint: "tfjobs", trainName: "plugin-job" })).pods,
      metrics: (await invoke("getNotebookDiskMetrics", { uuid: outs.nb?.uuid })).metrics,
    }),
  };
}

describe("the provider plugin's lifecycle (in-process engine)", () => {
  let emulator: Emulator;
  let stack: InProcessStack;
  /** The resources `pulumi import` recorded for the imported notebook, pasted into the program as a user would. */
  let importedCode: Declared[] = [];
  const writes = () =>
    emulator
      .requests()
      .filter((r) => r.operation !== "admin" && r.method !== "GET")
      .map((r) => r.operation);
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const notebookIds = () => stack.resources.filter((r) => r.kind === "Notebook").map((r) => r.id);

  beforeAll(async () => {
    emulator = await startTestEmulator({ credentials: [emulatorCredentials, other], notebookReadyDelayMs: 50 });
    await createTrainingJob(emulator, "plugin-job", [{ replica_type: "Worker", replicas: 2 }], "tfjobs");
    stack = emulatorStack(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("creates a group and a notebook, and reads templates, a job's pods and the notebook's disk metrics", async () => {
    await stack.up(program("first", undefined));
    const out = plain(stack.outputs) as Record<string, unknown>;
    const groups = emulator.listResourceGroups().filter((g) => g.rg_id === out.rgId);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ user_id: emulatorCredentials.userId, sku_id: "sku-1", name: out.groupName });
    expect(ours().map((n) => [n.uuid, n.status])).toEqual([[out.uuid, "Running"]]);
    expect(out.status).toBe("Running");
    expect((out.templates as unknown[]).length).toBe(3);
    expect((out.pods as Array<{ metadata: { name: string } }>).map((p) => p.metadata.name).sort()).toEqual(["plugin-job-worker-0", "plugin-job-worker-1"]);
    expect((out.metrics as Array<{ metricName: string }>).map((m) => m.metricName)).toContain("notebook_zfs_used_bytes");
    // The env value was a secret in the program: the platform has it, the state's checkpoint holds it only encrypted.
    expect(ours()[0]!.envs).toContainEqual({ name: "TOKEN", value: envSecret });
    expect(stack.checkpoint()).not.toContain(envSecret);
  });

  it("changes the description and the stop time in place, and the preview names each property", async () => {
    const preview = await stack.preview(program("second", "2031-01-01T00:00:00Z"));
    expect(preview.steps.map((s) => [s.name, s.op, s.diffs])).toEqual([
      ["team", "update", ["description"]],
      ["nb", "update", ["stopTime"]],
    ]);
    emulator.clearRequests();
    await stack.up(program("second", "2031-01-01T00:00:00Z"));
    expect(writes().sort()).toEqual(["setStopTime", "updateResourceGroup"]);
    expect(String(emulator.listResourceGroups().find((g) => g.rg_id === stack.outputs.rgId)?.description)).toMatch(/^second/);
  });

  it("refresh finds the stack as the platform has it: a preview after it shows no change", async () => {
    await stack.refresh();
    const preview = await stack.preview(program("second", "2031-01-01T00:00:00Z"));
    expect(ops(preview)).toEqual(["team:same", "nb:same"]);
  });

  it("pulumi import records a notebook made outside Pulumi, sending nothing, with the inputs its program code is written from", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console-made" });
    emulator.clearRequests();
    await stack.import("Notebook", "console", uuid!);
    expect(writes()).toEqual([]);
    expect(notebookIds()).toContain(uuid);
    const recorded = stack.find("console")!;
    expect(recorded.inputs).toMatchObject({ image: expect.any(String), imageType: "official", serverType: "jupyter" });
    importedCode = [{ kind: "Notebook", name: "console", inputs: plain(recorded.inputs) as Record<string, unknown> }];
  });

  it("a second provider instance acts as another user, its secret key stays encrypted, and the import option takes over a notebook", async () => {
    // Made in the console; the program declares it as it is, with the import option.
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "taken" });
    const seeded = emulator.listNotebooks().find((n) => n.uuid === uuid)!;
    const taken: Declared = {
      kind: "Notebook",
      name: "taken",
      import: uuid,
      inputs: {
        name: String(seeded.name),
        chargeMode: "elastic",
        duration: 3600,
        image: String(seeded.image),
        imageType: "official",
        serverType: "jupyter",
        replicaSpecs: { customCpu: 2 },
      },
    };
    const theirs: Declared = { kind: "ResourceGroup", name: "theirs", provider: "other", inputs: { skuId: "sku-1", podTypes: ["infer"] } };
    // The key in plain text: the plugin records it as a secret all the same (CheckConfig).
    const providers = {
      other: { baseUrl: emulator.url, accessKeyId: other.accessKeyId, secretAccessKey: other.secretAccessKey, userId: other.userId, zone: "xb3" },
    };
    emulator.clearRequests();
    const up = await stack.up(program("second", "2031-01-01T00:00:00Z", [theirs, ...importedCode, taken], providers));
    // The notebook `pulumi import` recorded, now in the program as its code says, is neither replaced nor changed.
    expect(writes()).toEqual(["createResourceGroup"]);
    expect(ops(up)).toEqual(["team:same", "nb:same", "theirs:create", "console:same", "taken:import"]);
    expect(notebookIds()).toContain(uuid);
    const byUser = emulator
      .listResourceGroups()
      .filter((g) => g.user_id !== "platform")
      .map((g) => g.user_id)
      .sort();
    expect(byUser).toEqual([emulatorCredentials.userId, other.userId].sort());
    expect(stack.checkpoint()).toContain(other.accessKeyId);
    expect(stack.checkpoint()).not.toContain(other.secretAccessKey);
  });

  it("a provider instance with a bad setting fails the preview naming the setting and the rule, and sends nothing", async () => {
    const bad = emulatorStack(emulator);
    emulator.clearRequests();
    const preview = bad.preview({
      providers: { wrong: { baseUrl: "ftp://platform.example" } },
      resources: [{ kind: "ResourceGroup", name: "g", provider: "wrong", inputs: { skuId: "sku-1", podTypes: ["job"] } }],
    });
    await expect(preview).rejects.toThrow(/^preview failed: baseUrl: aicp:baseUrl .*must use https:\/\/.*got 'ftp:'$/);
    expect(requestsBeyondSettingsCheck(emulator)).toEqual([]);
  });

  it("a provider instance whose keys the platform refuses fails the preview at configure, naming the keys, with nothing written", async () => {
    const bad = emulatorStack(emulator);
    emulator.clearRequests();
    const preview = bad.preview({
      providers: { wrong: { baseUrl: emulator.url, zone: "xb3", accessKeyId: other.accessKeyId, secretAccessKey: "not-the-secret", userId: other.userId } },
      resources: [{ kind: "ResourceGroup", name: "g", provider: "wrong", inputs: { skuId: "sku-1", podTypes: ["job"] } }],
    });
    const refused = (await preview.then(
      () => undefined,
      (e: Error) => e,
    ))!.message;
    expect(refused).toContain('AICP_CONFIG: credentials refused (HTTP 401, ret_code 1102, "signature does not match: ');
    expect(refused).toContain(
      "check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY). Found by listNotebooks, request id req-",
    );
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
  });

  it("destroy removes what the stack manages, the imported notebooks included", async () => {
    await stack.destroy();
    expect(ours()).toEqual([]);
    expect(emulator.listResourceGroups().filter((g) => g.user_id !== "platform")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });
});
