/**
 * The provider plugin through the real engine, as a YAML user meets it: the
 * archive installed with `pulumi plugin install … --file`, a YAML program run
 * by the YAML language host, against the emulator. One stack goes through
 * create, functions, an in-place update with a detailed diff, refresh, import,
 * a second provider instance acting as another user, and destroy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { stateOnDisk as readState } from "../support/cli-project";
import { packPlugin, yamlPluginProject } from "../support/plugin-project";

const other = { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" };
const envSecret = "token-never-in-plain-text";

/** The program at each step: `extra` adds resources and outputs. */
function program(description: string, stopTime: string | undefined, extra = "") {
  return `
resources:
  team:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-1
      podTypes: [job, instance]
      description: ${description}
  nb:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: jupyter:1
      imageType: official
      serverType: jupyter
      replicaSpecs:
        specs: sku-1
        customCpu: 2
      envs:
        - name: TOKEN
          value:
            fn::secret: ${envSecret}
${stopTime ? `      stopTime: "${stopTime}"\n` : ""}${extra}
variables:
  templates:
    fn::invoke:
      function: aicp:index:getResourceTemplates
      arguments:
        limit: 3
      return: templates
  pods:
    fn::invoke:
      function: aicp:index:getTrainingPods
      arguments:
        endpoint: tfjobs
        trainName: plugin-job
      return: pods
  metrics:
    fn::invoke:
      function: aicp:index:getNotebookDiskMetrics
      arguments:
        uuid: \${nb.uuid}
      return: metrics
outputs:
  rgId: \${team.rgId}
  groupName: \${team.name}
  uuid: \${nb.uuid}
  status: \${nb.status}
  templates: \${templates}
  pods: \${pods}
  metrics: \${metrics}
`;
}

const theirs = `
  other:
    type: pulumi:providers:aicp
    properties:
      accessKeyId: ${other.accessKeyId}
      # In plain text: the plugin records it as a secret all the same (CheckConfig).
      secretAccessKey: ${other.secretAccessKey}
      userId: ${other.userId}
      zone: xb3
  theirs:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-1
      podTypes: [infer]
    options:
      provider: \${other}
`;

describe("the provider plugin, from a YAML program", () => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  let outputsSeen: Record<string, unknown> = {};
  // The resources `pulumi import` wrote for the imported notebook, pasted into the program as a user would.
  let importedCode = "";
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const outputs = async () => JSON.parse((await stack.pulumi("stack", "output", "--json")).output) as Record<string, unknown>;
  const stateOnDisk = () => readState(stack.project);

  beforeAll(async () => {
    emulator = await startTestEmulator({ credentials: [emulatorCredentials, other] });
    await createTrainingJob(emulator, "plugin-job", [{ replica_type: "Worker", replicas: 2 }], "tfjobs");
    packed = packPlugin();
    stack = await yamlPluginProject("plugin-yaml", emulator, program("first", undefined), packed.archive);
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    packed?.dispose();
    await emulator?.close();
  });

  it("creates a group and a notebook, and reads templates, a job's pods and the notebook's disk metrics", async () => {
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const out = await outputs();
    outputsSeen = out;
    const groups = emulator.listResourceGroups().filter((g) => g.rg_id === out.rgId);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ user_id: emulatorCredentials.userId, sku_id: "sku-1", name: out.groupName });
    expect(ours().map((n) => [n.uuid, n.status])).toEqual([[out.uuid, "Running"]]);
    expect(out.status).toBe("Running");
    expect((out.templates as unknown[]).length).toBe(3);
    expect((out.pods as Array<{ metadata: { name: string } }>).map((p) => p.metadata.name).sort()).toEqual(["plugin-job-worker-0", "plugin-job-worker-1"]);
    expect((out.metrics as Array<{ metricName: string }>).map((m) => m.metricName)).toContain("notebook_zfs_used_bytes");
    // The env value was a secret in the program: the platform has it, the state on disk holds it only encrypted.
    expect(ours()[0]!.envs).toContainEqual({ name: "TOKEN", value: envSecret });
    expect(stateOnDisk()).not.toContain(envSecret);
  }, 300_000);

  it("changes the description and the stop time in place, and the preview names each property", async () => {
    stack.program(program("second", "2031-01-01T00:00:00Z"));
    const preview = await stack.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/~ description\s*:\s*"first" => "second"/);
    expect(preview.output).toMatch(/\+ stopTime\s*:\s*"2031-01-01T00:00:00Z"/);
    emulator.clearRequests();
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(writes().map((r) => r.operation).sort()).toEqual(["setStopTime", "updateResourceGroup"]);
    expect(String(emulator.listResourceGroups().find((g) => g.rg_id === (outputsSeen.rgId as string))?.description)).toMatch(/^second/);
  }, 300_000);

  it("refresh finds the stack as the platform has it: a preview after it shows no change", async () => {
    const refresh = await stack.pulumi("refresh");
    expect(refresh.status, refresh.output).toBe(0);
    const preview = await stack.pulumi("preview", "--expect-no-changes");
    expect(preview.status, preview.output).toBe(0);
  }, 300_000);

  it("imports a notebook made outside Pulumi and writes the YAML for it", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console-made" });
    emulator.clearRequests();
    const imported = await stack.pulumi("import", "aicp:index:Notebook", "console", uuid!, "--protect=false", "--out", join(stack.project.dir, "imported.yaml"));
    expect(imported.status, imported.output).toBe(0);
    const code = readFileSync(join(stack.project.dir, "imported.yaml"), "utf8");
    // The YAML generator writes the short form of the token (index module elided).
    expect(code).toMatch(/type: aicp(:index)?:Notebook\n/);
    expect(code).toMatch(/image: /);
    expect(writes()).toEqual([]);
    importedCode = code.slice(code.indexOf("resources:\n") + "resources:\n".length).split(/\n(?=\S)/)[0]!;
    const exported = JSON.parse((await stack.pulumi("stack", "export")).output) as { deployment: { resources: Array<{ type: string; id?: string }> } };
    expect(exported.deployment.resources.filter((r) => r.type === "aicp:index:Notebook").map((r) => r.id)).toContain(uuid);
  }, 300_000);

  it("a second provider instance acts as another user, its secret key stays encrypted, and the import option takes over a notebook", async () => {
    // Made in the console; the program declares it as it is, with the import option.
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "taken" });
    const seeded = emulator.listNotebooks().find((n) => n.uuid === uuid)!;
    const takeOver = `
  taken:
    type: aicp:index:Notebook
    properties:
      name: ${String(seeded.name)}
      chargeMode: elastic
      duration: 3600
      image: ${String(seeded.image)}
      imageType: official
      serverType: jupyter
      replicaSpecs:
        customCpu: 2
    options:
      import: ${uuid}
`;
    stack.program(program("second", "2031-01-01T00:00:00Z", theirs + importedCode + takeOver));
    emulator.clearRequests();
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    // The imported notebook, now in the program as pulumi import wrote it, is neither replaced nor changed.
    expect(writes().map((r) => r.operation), up.output).toEqual(["createResourceGroup"]);
    const exported = JSON.parse((await stack.pulumi("stack", "export")).output) as { deployment: { resources: Array<{ type: string; id?: string }> } };
    expect(exported.deployment.resources.filter((r) => r.type === "aicp:index:Notebook").map((r) => r.id)).toContain(uuid);
    const byUser = emulator.listResourceGroups().filter((g) => g.user_id !== "platform").map((g) => g.user_id).sort();
    expect(byUser).toEqual([emulatorCredentials.userId, other.userId].sort());
    expect(stateOnDisk()).not.toContain(other.secretAccessKey);
  }, 300_000);

  it("the README's YAML program previews cleanly against the plugin's schema and checks", async () => {
    const readme = readFileSync(join(__dirname, "../../README.md"), "utf8");
    const block = /^```yaml\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf("## Every Pulumi language")))?.[1];
    expect(block, "the README's plugin section has a yaml block").toBeDefined();
    const readmeStack = await yamlPluginProject("plugin-readme", emulator, block!.replace(/^name: .*\nruntime: yaml\n/, ""), packed.archive);
    try {
      const preview = await readmeStack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(/\+ 3 to create/);
    } finally {
      readmeStack.project.dispose();
    }
  }, 300_000);

  it("a provider instance with a bad setting fails the preview naming the setting, and sends nothing", async () => {
    const bad = await yamlPluginProject(
      "plugin-bad-config",
      emulator,
      `
resources:
  wrong:
    type: pulumi:providers:aicp
    properties:
      baseUrl: ftp://platform.example
  g:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-1
      podTypes: [job]
    options:
      provider: \${wrong}
`,
      packed.archive,
    );
    try {
      emulator.clearRequests();
      const preview = await bad.pulumi("preview");
      expect(preview.status).not.toBe(0);
      expect(preview.output).toMatch(/baseUrl/);
      expect(preview.output).toContain("ftp://platform.example");
      expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
    } finally {
      bad.project.dispose();
    }
  }, 300_000);

  it("destroy removes what the stack manages, the imported notebooks included", async () => {
    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(ours()).toEqual([]);
    expect(emulator.listResourceGroups().filter((g) => g.user_id !== "platform")).toEqual([]);
  }, 300_000);
});
