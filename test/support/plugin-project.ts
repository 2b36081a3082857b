/**
 * Pulumi projects that use the provider plugin: as users install it (the
 * archive scripts/plugin-pack.sh makes, installed with `pulumi plugin install
 * resource aicp <version> --file …` into the project's own PULUMI_HOME) or,
 * for tests of what the plugin does, run from the repository's bin/ (named in
 * the project's Pulumi.yaml); and YAML programs run by the YAML language host
 * tools/yaml-host builds.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { inject } from "vitest";
import { join, resolve } from "node:path";
import type { Emulator } from "../../emulator";
import { cliProject, confirmed, type CliProject } from "./cli-project";
import { pulumiBinary } from "./pulumi";

const repo = resolve(__dirname, "../..");

/** The package's version: the plugin's and the schema's. */
export const pluginVersion = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }).version;

/** The plugin archive the engine project's global setup packed (package-install.ts); nothing to clean up. */
export function packPlugin(): { archive: string; dispose(): void } {
  return { archive: inject("pluginArchive"), dispose: () => undefined };
}

/** The folder of the YAML language host, built once from the Go module proxy (tools/yaml-host/build.sh). */
export function yamlHostDir(): string {
  try {
    return execFileSync("bash", [join(repo, "tools/yaml-host/build.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .trim()
      .split("\n")
      .pop()!;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`the YAML language host could not be built (it needs Go 1.26+ and the Go module proxy; run \`bash tools/yaml-host/build.sh\`): ${stderr}`);
  }
}

/**
 * The plugin as this repository's bin/pulumi-resource-aicp, which runs the current build (dist/) with the repository's
 * node_modules: named by the project's Pulumi.yaml (`plugins.providers`), it needs no `pulumi plugin install` (about
 * 10 s of an engine test's time). For tests of what the plugin does, not of how it is packed and installed.
 */
export const repositoryPlugin = { dir: join(repo, "bin") };

/** The plugin a project uses: the path of an archive to install (as users install it), or {@link repositoryPlugin}. */
export type PluginSource = string | typeof repositoryPlugin;

/**
 * What a project's Pulumi.yaml adds for `plugin`: for {@link repositoryPlugin}, `plugins.providers` naming its folder
 * and the package's version (bin/ runs this build); for an archive, nothing. With a version the engine keeps the
 * plugin's schema in PULUMI_HOME/schemas, as it does for an installed plugin; without one, every command of a YAML
 * program started the plugin once more for its schema (a preview took 1.8 s instead of 1.3 s).
 */
export function pluginsSection(plugin: PluginSource): string {
  return typeof plugin === "string"
    ? ""
    : `plugins:\n  providers:\n    - name: aicp\n      path: ${JSON.stringify(plugin.dir)}\n      version: ${pluginVersion}\n`;
}

/** Installs an archive into the project's PULUMI_HOME (`pulumi plugin install … --file`); {@link repositoryPlugin} needs no install. */
async function install(project: CliProject, plugin: PluginSource): Promise<void> {
  if (typeof plugin !== "string") return;
  const installed = await project.run("pulumi", "plugin", "install", "resource", "aicp", pluginVersion, "--file", plugin);
  if (installed.status !== 0) throw new Error(`pulumi plugin install failed: ${installed.output}`);
}

/**
 * A YAML project (Pulumi.yaml holds the program), its stack `ci` created, with the plugin installed from an archive
 * (as users install it) or, given {@link repositoryPlugin}, run from that folder.
 */
export async function yamlPluginProject(
  name: string,
  emulator: Emulator,
  program: string,
  plugin: PluginSource,
  extraEnv: Record<string, string> = {},
  { initStack = true } = {},
) {
  const path = `${yamlHostDir()}:${resolve(pulumiBinary(), "..")}:${process.env.PATH}`;
  // The caller's own object, which cliProject reads at each command: a test may change a variable between commands (a fresh runner).
  const env = Object.assign(extraEnv, { PATH: path, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", ...extraEnv });
  const project: CliProject = cliProject(name, emulator, "", env);
  for (const file of ["index.js", "package.json"]) unlinkSync(join(project.dir, file));
  const plugins = pluginsSection(plugin);
  writeFile(project, plugins + program);
  await install(project, plugin);
  // Not where the stack is in a backend another project folder created (a second runner's checkout).
  const init = initStack ? await project.run("pulumi", "stack", "init", "ci", "--non-interactive") : { status: 0, output: "" };
  if (init.status !== 0) throw new Error(`pulumi stack init failed: ${init.output}`);
  const confirm = (command: string | undefined) => (["up", "refresh", "destroy"].includes(command ?? "") ? confirmed : command === "import" ? ["--yes"] : []);
  return {
    project,
    /** Replaces the program. */
    program: (text: string) => writeFile(project, plugins + text),
    pulumi: (...args: string[]) => project.run("pulumi", ...args, ...confirm(args[0]), "--non-interactive", "--stack", "ci"),
  };
}

function writeFile(project: CliProject, program: string): void {
  writeFileSync(join(project.dir, "Pulumi.yaml"), `name: aicp-yaml\nruntime: yaml\n${program}`);
}

/**
 * A project folder (own PULUMI_HOME and file backend) for programs that create their stack themselves (Automation
 * API): with the plugin installed from an archive and no Pulumi.yaml (the program writes its settings), or, given
 * {@link repositoryPlugin}, a Pulumi.yaml of project `aicp-<name>` (runtime python: the Automation API programs here
 * are Python's) naming that folder, which the program must use as its settings (the Automation API's project
 * settings cannot name a plugin).
 */
export async function pluginHome(name: string, emulator: Emulator, plugin: PluginSource, extraEnv: Record<string, string> = {}): Promise<CliProject> {
  const project = cliProject(name, emulator, "", { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", ...extraEnv });
  for (const file of ["index.js", "package.json", "Pulumi.yaml"]) unlinkSync(join(project.dir, file));
  if (typeof plugin !== "string") writeFileSync(join(project.dir, "Pulumi.yaml"), `name: aicp-${name}\nruntime: python\n${pluginsSection(plugin)}`);
  await install(project, plugin);
  return project;
}

/** The python of an environment with the `pulumi` package and the generated SDK (scripts/python-sdk.sh). */
export function pythonWithSdk(): string {
  try {
    return execFileSync("bash", [join(repo, "scripts/python-sdk.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .trim()
      .split("\n")
      .pop()!;
  } catch (error) {
    throw new Error(
      `the Python SDK environment could not be made (python3 with venv and PyPI are needed; run \`bash scripts/python-sdk.sh\`): ` +
        `${(error as { stderr?: string }).stderr ?? String(error)}`,
    );
  }
}

/** A YAML resource block of one CPU notebook named `name` (the smallest valid one), its properties indented for more. */
export const yamlCpuNotebook = (name: string) => `
  ${name}:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: jupyter:1
      imageType: official
      serverType: jupyter
      replicaSpecs:
        specs: sku-1
        customCpu: 2`;

/** A YAML program whose notebook `research` takes over the notebook `uuid` (its preview warns what the take-over will do). */
export const yamlTakeOver = (uuid: string) => `
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
`;
