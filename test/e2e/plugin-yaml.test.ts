/**
 * The provider plugin through the real engine, as a YAML user meets it: the
 * archive installed with `pulumi plugin install … --file`, a YAML program run
 * by the YAML language host, against the emulator. One smoke goes through
 * the lifecycle in four engine commands; the lifecycle's cases one by one
 * (detailed diffs, secrets, pulumi import, a second provider instance, the
 * import option, destroy of imported notebooks) run in-process in
 * test/contract/plugin-lifecycle.test.ts.
 *
 * What only the engine shows: the plugin installed from its archive and
 * started by the engine, the YAML language host reading the plugin's schema
 * (types, function calls with `fn::invoke`, a provider resource's arguments),
 * and the engine's own diff and refresh over the plugin's answers. A bad
 * provider setting is refused by the plugin's CheckConfig in-process
 * (test/contract/plugin-lifecycle.test.ts); the CLI's exit status on a bad
 * setting is test/reliability/bad-config.test.ts's. The README's program is
 * previewed with the plugin run from the repository's bin/: the smoke's
 * install shows the archive's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { packPlugin, pluginVersion, repositoryPlugin, yamlCpuNotebook, yamlPluginProject } from "../support/plugin-project";
import { codeBlocks, readDoc } from "../support/user-docs";

/** The program: a group and a notebook, a function call before them and one on the notebook's outputs. */
function program(description: string, stopTime?: string) {
  return `
resources:
  team:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-1
      podTypes: [job, instance]
      description: ${description}
${yamlCpuNotebook("nb").replace(/^\n/, "")}
${stopTime ? `      stopTime: "${stopTime}"\n` : ""}
variables:
  templates:
    fn::invoke:
      function: aicp:index:getResourceTemplates
      arguments:
        limit: 3
      return: templates
  metrics:
    fn::invoke:
      function: aicp:index:getNotebookDiskMetrics
      arguments:
        uuid: \${nb.uuid}
      return: metrics
  jobs:
    fn::invoke:
      function: aicp:index:getTrainingJobs
      arguments:
        limit: 5
      return: jobs
  listedGroups:
    fn::invoke:
      function: aicp:index:getResourceGroups
      arguments:
        searchWord: \${team.name}
      return: groups
outputs:
  rgId: \${team.rgId}
  uuid: \${nb.uuid}
  templates: \${templates}
  metrics: \${metrics}
  jobs: \${jobs}
  listedGroups: \${listedGroups}
`;
}

describe("the provider plugin, from a YAML program", () => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  const writes = () =>
    emulator
      .requests()
      .filter((r) => r.operation !== "admin" && r.method !== "GET")
      .map((r) => r.operation);
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await createTrainingJob(emulator, "yaml-job", [{ replica_type: "Worker", replicas: 1 }], "tfjobs");
    packed = packPlugin();
    stack = await yamlPluginProject("plugin-yaml", emulator, program("first"), packed.archive);
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    packed?.dispose();
    await emulator?.close();
  });

  it("smoke: up with function calls, an in-place change, a refresh that changes nothing, destroy", async () => {
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const out = JSON.parse((await stack.pulumi("stack", "output", "--json")).output) as Record<string, unknown>;
    expect(emulator.listResourceGroups().filter((g) => g.rg_id === out.rgId)).toHaveLength(1);
    expect(ours().map((n) => [n.uuid, n.status])).toEqual([[out.uuid, "Running"]]);
    expect((out.templates as unknown[]).length).toBe(3);
    expect((out.metrics as Array<{ metricName: string }>).map((m) => m.metricName)).toContain("notebook_zfs_used_bytes");
    expect((out.jobs as Array<{ name: string; endpoint: string }>).map((j) => [j.name, j.endpoint])).toEqual([["yaml-job", "tfjobs"]]);
    // Every request the installed plugin sent names it, its version and the platform SDK's channel (client/user-agent.ts).
    const senders = new Set(
      emulator
        .requests()
        // The job beforeAll made was sent by the test itself.
        .filter((r) => r.operation !== "admin" && r.operation !== "createTrainingJob")
        .map((r) => `${r.userAgent?.replace(/; node .*$/, "")} ${r.channel}`),
    );
    expect([...senders]).toEqual([`pulumi-aicp/${pluginVersion} (plugin api`]);
    // getResourceGroups, called with the group's name once it exists, finds that group.
    expect((out.listedGroups as Array<{ rgId: string }>).map((g) => g.rgId)).toEqual([out.rgId]);

    stack.program(program("second", "2031-01-01T00:00:00Z"));
    emulator.clearRequests();
    const change = await stack.pulumi("up");
    expect(change.status, change.output).toBe(0);
    expect(writes().sort()).toEqual(["setStopTime", "updateResourceGroup"]);
    expect(ours().map((n) => n.uuid)).toEqual([out.uuid]);

    const refresh = await stack.pulumi("refresh", "--expect-no-changes");
    expect(refresh.status, refresh.output).toBe(0);

    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(ours()).toEqual([]);
    expect(emulator.listResourceGroups().filter((g) => g.user_id !== "platform")).toEqual([]);
  }, 300_000);

  it("the installed plugin runs the doctor with the stack's configuration, as docs/configuration.md says for Python, Go and YAML users", async () => {
    // The page's command as written, on this project's stack (ci) and with its PULUMI_HOME, where `pulumi plugin install` put the plugin.
    const command = codeBlocks(readDoc("docs/configuration.md"), "sh")
      .find((block) => block.includes("pulumi-resource-aicp doctor"))
      ?.trim();
    expect(command, "docs/configuration.md shows the plugin's doctor").toContain(
      `/plugins/resource-aicp-v${pluginVersion}/pulumi-resource-aicp doctor --stack dev`,
    );
    const doctor = await stack.project.run("bash", "-c", command!.replace("--stack dev", "--stack ci"));
    expect(doctor.status, doctor.output).toBe(0);
    expect(doctor.output).toMatch(/^ok +user id +usr-emulator: its namespace usr-emulator answers these keys$/m);
  }, 60_000);

  it("the registry page's YAML functions program (docs/_index.md) previews, every function answering", async () => {
    await createTrainingJob(emulator, "nightly-finetune", [{ replica_type: "Worker", replicas: 1 }]);
    const page = readFileSync(join(__dirname, "../../docs/_index.md"), "utf8");
    const block = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).find((b) => b.includes("getTrainingPods"));
    expect(block, "docs/_index.md has a yaml functions program").toBeDefined();
    const stack = await yamlPluginProject("plugin-registry", emulator, block!.replace(/^name: .*\nruntime: yaml\n/, ""), repositoryPlugin);
    try {
      const preview = await stack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(/\+ 2 to create/);
    } finally {
      stack.project.dispose();
    }
  }, 300_000);

  it("refuses a value outside an enum of the schema in preview, naming the allowed values (serverType: Jupyter)", async () => {
    const wrong = `resources:${yamlCpuNotebook("nb").replace("serverType: jupyter", "serverType: Jupyter")}\n`;
    const enumStack = await yamlPluginProject("plugin-enum", emulator, wrong, repositoryPlugin);
    try {
      emulator.clearRequests();
      const preview = await enumStack.pulumi("preview");
      expect(preview.status, preview.output).not.toBe(0);
      expect(preview.output).toContain("serverType");
      expect(preview.output).toContain("Jupyter");
      for (const allowed of ["jupyter", "code_server", "rstudio"]) expect(preview.output).toContain(allowed);
      expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toEqual([]);
    } finally {
      enumStack.project.dispose();
    }
  }, 300_000);

  it("examples/quickstart-yaml, as written: up makes a running notebook and its group, destroy removes both", async () => {
    const example = readFileSync(join(__dirname, "../../examples/quickstart-yaml/Pulumi.yaml"), "utf8");
    const body = example.replace(/^name: .*\nruntime: yaml\ndescription: .*\n/, "");
    expect(body).not.toBe(example);
    const exampleStack = await yamlPluginProject("example-yaml", emulator, body, repositoryPlugin);
    try {
      const up = await exampleStack.pulumi("up");
      expect(up.status, up.output).toBe(0);
      const out = JSON.parse((await exampleStack.pulumi("stack", "output", "--json", "--show-secrets")).output) as Record<string, string>;
      expect(out.status).toBe("Running");
      expect(ours().map((n) => n.uuid)).toContain(out.notebookUuid);
      expect(emulator.listResourceGroups().map((g) => g.rg_id)).toContain(out.groupId);
      // The server of the notebook (a password beside it stays secret in the state).
      expect(out.jupyterServer).toContain(out.notebookUuid);
      const destroy = await exampleStack.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      expect(ours().map((n) => n.uuid)).not.toContain(out.notebookUuid);
      expect(emulator.listResourceGroups().map((g) => g.rg_id)).not.toContain(out.groupId);
    } finally {
      exampleStack.project.dispose();
    }
  }, 300_000);

  it("the README's YAML program previews cleanly against the plugin's schema and checks", async () => {
    const readme = readFileSync(join(__dirname, "../../README.md"), "utf8");
    const block = /^```yaml\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf("## A program in each language")))?.[1];
    expect(block, "the README's programs have a yaml block").toBeDefined();
    const readmeStack = await yamlPluginProject("plugin-readme", emulator, block!.replace(/^name: .*\nruntime: yaml\n/, ""), repositoryPlugin);
    try {
      const preview = await readmeStack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(/\+ 3 to create/);
    } finally {
      readmeStack.project.dispose();
    }
  }, 300_000);
});
