/**
 * One notebook program driven through the real CLI against its own emulator,
 * with a console beside it (signed requests to the platform's operations), for
 * the engine tests of what Pulumi shows against what the platform has.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Emulator, EmulatorOptions } from "../../emulator";
import { client } from "../emulator/client";
import { cliStack, type CliProject } from "./cli-project";
import { emulatorCredentials, startTestEmulator } from "./emulator";

export const namespace = emulatorCredentials.userId.toLowerCase();
/** The notebook operations' path under the namespace, as the console's requests use it. */
export const NS = `/notebooks/namespaces/${namespace}`;

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

/** A time `seconds` from now, as a program writes it. */
export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

export interface NotebookCase {
  emulator: Emulator;
  project: CliProject;
  pulumi(...args: string[]): Promise<{ status: number | null; output: string }>;
  /** Replaces the program. */
  write(text: string): void;
  /** Our one notebook as the platform has it. */
  notebook(): Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Requests of one operation the platform received since the last clear. */
  sent(operation: string): number;
  /** A console: signed requests to the platform's API. */
  console: ReturnType<typeof client>;
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
        notebook: () => {
          const mine = emulator.listNotebooks().filter((n) => n.namespace === namespace);
          expect(mine).toHaveLength(1);
          return mine[0]!;
        },
        sent: (operation) => emulator.requests().filter((r) => r.operation === operation).length,
        console: client(emulator),
      };
    },
    async dispose(): Promise<void> {
      for (const c of cleanups.splice(0)) await c();
    },
  };
}

/** Polls the emulator until `condition` holds of the case's notebook, at most 20 s. */
export async function until(c: NotebookCase, condition: (nb: Record<string, unknown>) => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(c.notebook()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(condition(c.notebook())).toBe(true);
}
