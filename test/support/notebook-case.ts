/**
 * One notebook program driven through the real CLI against its own emulator,
 * with a console beside it (signed requests to the platform's operations), for
 * the engine tests of what Pulumi shows against what the platform has (the
 * console and the platform's view: platform-console.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator, EmulatorOptions } from "../../emulator";
import { cliStack, type CliProject } from "./cli-project";
import { startTestEmulator } from "./emulator";
import { platformConsole, type PlatformConsole } from "./platform-console";

/** A program of one notebook `research`; `extra` is more of its arguments, `options` its resource options. */
export function program(extra = "", options = "{}"): string {
  return `
const aicp = require("pulumi-aicp");
const nb = new aicp.Notebook("research", { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official",
  serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 }${extra} }, ${options});
exports.uuid = nb.uuid;
exports.status = nb.status;
`;
}

export interface NotebookCase extends PlatformConsole {
  emulator: Emulator;
  project: CliProject;
  pulumi(...args: string[]): Promise<{ status: number | null; output: string }>;
  /** Replaces the program. */
  write(text: string): void;
}

/** Cases of one test file; `dispose` ends every emulator and removes every project. */
export function notebookCases() {
  const cleanups: Array<() => Promise<void> | void> = [];
  return {
    async setUp(name: string, text: string, options: EmulatorOptions = {}, env: Record<string, string> = {}): Promise<NotebookCase> {
      const emulator = await startTestEmulator(options);
      cleanups.push(() => emulator.close());
      const { project, pulumi } = await cliStack(name, emulator, text, env);
      cleanups.push(() => project.dispose());
      return {
        emulator,
        project,
        pulumi,
        write: (t) => writeFileSync(join(project.dir, "index.js"), t),
        ...platformConsole(emulator),
      };
    },
    async dispose(): Promise<void> {
      for (const c of cleanups.splice(0)) await c();
    },
  };
}
