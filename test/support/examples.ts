/** Runs an example of examples/ as a user's program: copied into a program folder that has the package installed. */
import { cpSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type { Emulator } from "../../emulator";
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
