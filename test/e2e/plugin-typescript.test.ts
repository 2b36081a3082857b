/**
 * The provider plugin from a TypeScript program, driven by the pulumi CLI:
 * `pulumi import` of a group and a notebook made in the console writes
 * TypeScript (the nodejs language host's GenerateProgram, Pulumi's own program
 * generator) against the plugin's generated SDK (sdks/nodejs, package
 * pulumi-aicp-plugin, packed by scripts/nodejs-sdk.sh). Pasted as the program,
 * that code type-checks, previews with no change, and manages what it names.
 * The plugin runs from the repository's bin/, named in the project's
 * Pulumi.yaml (how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { client } from "../emulator/client";
import { cliProject, stateOnDisk, type CliProject } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { pluginsSection, repositoryPlugin } from "../support/plugin-project";

const repo = resolve(__dirname, "../..");
const namespace = emulatorCredentials.userId.toLowerCase();
/** The value of an env the console set on the notebook: a token, kept out of the code import writes and out of the state in plain text. */
const envToken = "hf_console_token_never_in_code";

describe("the provider plugin, from a TypeScript program", () => {
  let emulator: Emulator;
  let project: CliProject;
  let rgId = "";
  let uuid = "";
  const pulumi = (...args: string[]) =>
    project.run("pulumi", ...args, ...(["up", "destroy", "import"].includes(args[0]!) ? ["--yes"] : []), "--non-interactive", "--stack", "ci");
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // The variable import names for the env is set where pulumi runs, as a pipeline sets it from its secrets.
    project = cliProject("plugin-ts", emulator, "", { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", AICP_CONSOLE_NOTEBOOK_HF_TOKEN: envToken });
    appendFileSync(join(project.dir, "Pulumi.yaml"), pluginsSection(repositoryPlugin));
    // A TypeScript program, compiled by the test (tsc) so that any nodejs language host runs it.
    writeFileSync(join(project.dir, "package.json"), JSON.stringify({ name: "aicp-plugin-ts", main: "index.js" }));
    writeFileSync(join(project.dir, "index.js"), "");
    // The plugin's SDK from the tarball a user installs (docs/plugin.md, "TypeScript with the plugin"), unpacked where
    // `npm install <tarball>` puts it; its one dependency, @pulumi/pulumi, is the project's own.
    const tarball = execFileSync("bash", [join(repo, "scripts/nodejs-sdk.sh"), project.home], {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
      .trim()
      .split("\n")
      .pop()!;
    mkdirSync(join(project.dir, "node_modules/pulumi-aicp-plugin"), { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", join(project.dir, "node_modules/pulumi-aicp-plugin"), "--strip-components=1"]);
    const init = await project.run("pulumi", "stack", "init", "ci", "--non-interactive");
    if (init.status !== 0) throw new Error(`pulumi stack init failed: ${init.output}`);
    const console = client(emulator);
    const group = await console.post("/resource/resource_group", {
      name: "console-group",
      description: "made by hand",
      sku_id: "sku-1",
      pod_type: ["job"],
      customize_enable: 0,
    });
    expect(group.json?.ret_code, group.text).toBe(0);
    rgId = String(emulator.listResourceGroups().find((g) => g.name === "console-group")!.rg_id);
    const notebook = await console.post(`/notebooks/namespaces/${namespace}/create`, {
      charge_mode: "elastic",
      duration: 3600,
      user_id: emulatorCredentials.userId,
      namespace,
      image: "jupyter:2",
      image_type: "official",
      name: "console-notebook",
      server_type: "jupyter",
      replica_specs: { replicas: 1, specs: "sku-1", custom_cpu: 2 },
      envs: [{ name: "HF_TOKEN", value: envToken }],
    });
    expect(notebook.json?.ret_code, notebook.text).toBe(0);
    uuid = String(notebook.json.data[0].uuid);
  }, 600_000);
  afterAll(async () => {
    project?.dispose();
    await emulator?.close();
  });

  it("pulumi import of a group and a notebook writes TypeScript against the plugin's SDK, and changes nothing on the platform", async () => {
    writeFileSync(
      join(project.dir, "import.json"),
      JSON.stringify({
        resources: [
          { type: "aicp:index:ResourceGroup", name: "shared", id: rgId },
          { type: "aicp:index:Notebook", name: "console", id: uuid },
        ],
      }),
    );
    emulator.clearRequests();
    const imported = await pulumi("import", "--file", "import.json", "--protect=false", "--out", join(project.dir, "imported.ts"));
    expect(imported.status, imported.output).toBe(0);
    expect(writes()).toEqual([]);
    const code = readFileSync(join(project.dir, "imported.ts"), "utf8");
    // The plugin's SDK, not pulumi-aicp: that package's classes are dynamic resources of another type.
    expect(code).toContain('import * as aicp from "pulumi-aicp-plugin";');
    expect(code).toMatch(/new aicp\.ResourceGroup\("shared", \{[^}]*skuId: "sku-1"/s);
    expect(code).toMatch(/new aicp\.Notebook\("console", \{[^]*image: "jupyter:2"/);
    // An env value is never written into the code: it is read where pulumi runs from a variable named for the notebook and the env. Nor is it in the
    // state in plain text.
    expect(code).toMatch(/envs: \[\{\s*name: "HF_TOKEN",\s*valueFromEnv: "AICP_CONSOLE_NOTEBOOK_HF_TOKEN",\s*\}\]/);
    expect(code).not.toContain(envToken);
    expect(stateOnDisk(project)).not.toContain(envToken);
  }, 300_000);

  /** The repository's tsc in the project, strict as `pulumi new typescript` sets it, on `args`. */
  const strictTsc = (...args: string[]) =>
    project.run(
      join(repo, "node_modules/.bin/tsc"),
      "--strict",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--types",
      "node",
      ...args,
    );

  it("the written code type-checks against the SDK and, as the program, previews with no change", async () => {
    writeFileSync(join(project.dir, "index.ts"), readFileSync(join(project.dir, "imported.ts"), "utf8"));
    // Strict, as `pulumi new typescript` sets it; the JavaScript it writes is the program.
    const tsc = await strictTsc("index.ts");
    expect(tsc.status, tsc.output).toBe(0);
    const preview = await pulumi("preview", "--expect-no-changes", "--diff");
    expect(preview.status, preview.output).toBe(0);
  }, 300_000);

  it("the registry page's TypeScript examples (docs/_index.md) type-check against the SDK", async () => {
    const page = readFileSync(join(repo, "docs/_index.md"), "utf8");
    const files = [...page.matchAll(/^```typescript\n([\s\S]*?)^```$/gm)].map((m, i) => {
      writeFileSync(join(project.dir, `registry-example-${i + 1}.ts`), m[1]!);
      return `registry-example-${i + 1}.ts`;
    });
    expect(files).toHaveLength(2);
    const tsc = await strictTsc("--noEmit", ...files);
    expect(tsc.status, tsc.output).toBe(0);
  }, 120_000);

  it("from then on the program manages both: destroy deletes the notebook and the group", async () => {
    const destroy = await pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(emulator.listNotebooks().filter((n) => n.uuid === uuid && n.status !== "Deleted")).toEqual([]);
    expect(emulator.listResourceGroups().filter((g) => g.rg_id === rgId)).toEqual([]);
  }, 300_000);
});
