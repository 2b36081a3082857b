/**
 * What the state records through the plugin, where the generated SDKs and
 * YAML do less than the TypeScript SDK: registry passwords and env values
 * given in plain text, secrets after a refresh, and ignoreChanges after the
 * console changed a notebook (the package's cases in test/e2e/truth.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AicpClient } from "../../client/client";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { stateOnDisk as readState } from "../support/cli-project";
import { packPlugin, yamlPluginProject } from "../support/plugin-project";

const password = "registry-password-in-plain-text";
const token = "env-token-in-plain-text";
const pipSecret = "https://bot:pip-token-marked-secret@pypi.example/simple";

const program = `
resources:
  nb:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: registry.example/team/jupyter:1
      imageType: custom
      serverType: jupyter
      stopTime: "2031-01-01T00:00:00Z"
      replicaSpecs:
        specs: sku-1
        customCpu: 2
      customImageSecret:
        hasAuth: true
        username: bot
        password: ${password}
      envs:
        - name: TOKEN
          value: ${token}
      pip:
        fn::secret: ${pipSecret}
    options:
      ignoreChanges: [stopTime, desiredState]
outputs:
  uuid: \${nb.uuid}
`;

describe("the plugin's state: secrets and what the console changed", () => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  const stateOnDisk = () => readState(stack.project);
  const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId)[0]!;
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET").map((r) => r.operation);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    packed = packPlugin();
    stack = await yamlPluginProject("plugin-truth", emulator, program, packed.archive);
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    packed?.dispose();
    await emulator?.close();
  });

  it("keeps a registry password and env values given in plain text out of the state and the preview", async () => {
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(live().envs).toContainEqual({ name: "TOKEN", value: token });
    for (const secret of [password, token, pipSecret]) expect(stateOnDisk()).not.toContain(secret);
    const preview = await stack.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    for (const secret of [password, token, pipSecret]) expect(preview.output).not.toContain(secret);
  }, 300_000);

  it("after the console moved the stop time and stopped the notebook, refresh and up keep both (ignoreChanges), and secrets stay encrypted", async () => {
    const client = new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
    try {
      const uuid = String(live().uuid);
      const ns = emulatorCredentials.userId.toLowerCase();
      await client.setStopTime(ns, uuid, "2032-06-01T00:00:00Z");
      await client.stopNotebooks(ns, [uuid]);
    } finally {
      await client.close();
    }
    const refresh = await stack.pulumi("refresh");
    expect(refresh.status, refresh.output).toBe(0);
    for (const secret of [password, token, pipSecret]) expect(stateOnDisk()).not.toContain(secret);
    emulator.clearRequests();
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(writes()).toEqual([]);
    expect(live()).toMatchObject({ status: "Stopped" });
    expect(String(live().stop_time)).toMatch(/^2032-06-01/);
  }, 300_000);

  it("a take-over's preview warning reaches the engine's diagnostics, as the package's does", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console" });
    const other = await yamlPluginProject(
      "plugin-adopt",
      emulator,
      `
resources:
  research:
    type: aicp:index:Notebook
    properties:
      adoptId: ${uuid}
      chargeMode: elastic
      duration: 3600
      image: jupyter:2
      imageType: official
      serverType: jupyter
      replicaSpecs:
        customCpu: 2
`,
      packed.archive,
    );
    try {
      const preview = await other.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(/warning: .*will take over notebook/);
    } finally {
      other.project.dispose();
    }
  }, 300_000);

  it("destroy removes the notebook", async () => {
    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    // The take-over was only previewed: the console-made notebook stays.
    expect(emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId).map((n) => n.name)).toEqual(["console-0000"]);
  }, 300_000);
});
