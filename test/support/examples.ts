/** Runs an example of examples/ as a user's program: copied into a program folder that has the package installed. */
import { cpSync, readdirSync, unlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type { Emulator } from "../../emulator";
import { cliProject, confirmed, type CliStack } from "./cli-project";
import { emulatorConfig } from "./emulator";
import { createTestStack, type TestStack } from "./pulumi";

export async function exampleStack(
  example: string,
  emulator: Emulator,
  config: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<TestStack> {
  const project = `ex-${example}`.slice(0, 40);
  const target: TestStack = await createTestStack({
    name: project,
    env,
    config: {
      ...emulatorConfig(emulator),
      // Examples read their own settings from the project's config namespace.
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [`aicp-${project}:${k}`, { value: v }])),
    },
    program: () => {
      const entry = join(target.workDir, "index.js");
      const load = createRequire(entry);
      delete load.cache[entry];
      return load(entry);
    },
  });
  cpSync(resolve(__dirname, "../../examples", example, "index.js"), join(target.workDir, "index.js"));
  return target;
}

/**
 * An example folder as a user copies it (every file: Pulumi.yaml, package.json, the program), run by the pulumi CLI
 * and its nodejs language host rather than the Automation API, below the folder where the package is installed, with
 * its stack `ci` created.
 */
export async function exampleCliStack(example: string, emulator: Emulator): Promise<CliStack> {
  const project = cliProject(`ex-${example}`.slice(0, 40), emulator, "");
  unlinkSync(join(project.dir, "index.js"));
  const folder = resolve(__dirname, "../../examples", example);
  for (const file of readdirSync(folder)) cpSync(join(folder, file), join(project.dir, file));
  const init = await project.run("pulumi", "stack", "init", "ci", "--non-interactive");
  if (init.status !== 0) {
    project.dispose();
    throw new Error(`pulumi stack init failed: ${init.output}`);
  }
  const confirm = (command: string | undefined) => (["up", "refresh", "destroy"].includes(command ?? "") ? confirmed : []);
  return { emulator, project, pulumi: (...args) => project.run("pulumi", ...args, ...confirm(args[0]), "--non-interactive", "--stack", "ci") };
}
