/**
 * Drives the real pulumi CLI and engine for end-to-end tests: one stack per
 * test on a local file backend, an inline program run through the Automation
 * API, and the package as a user installs it (see package-install.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inject } from "vitest";
import type * as automationTypes from "@pulumi/pulumi/automation";

export const passphrase = "aicp-e2e-passphrase";

/** The pulumi binary scripts/bootstrap.sh provided; fails with a way out when absent. */
export function pulumiBinary(): string {
  const binary = process.env.AICP_PULUMI;
  if (!binary) {
    throw new Error(
      "AICP_PULUMI is not set: run the tests with `npm test` (scripts/run.sh provisions Node 22 and the pulumi CLI), or `. scripts/bootstrap.sh` first",
    );
  }
  return binary;
}

/** Loads a module from the installed-package folder, as a user's program would. */
export function requireInstalled<T>(id: string): T {
  return createRequire(join(inject("e2eRoot"), "package.json"))(id) as T;
}

export interface StackOptions {
  /** Short name for folders and the project. */
  name: string;
  /** The Pulumi program: gets the installed `pulumi-aicp` and `@pulumi/pulumi`. */
  program: (aicp: typeof import("../../sdk"), pulumi: typeof import("@pulumi/pulumi")) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Stack configuration, e.g. `{"aicp:baseUrl": {value: url}}`. */
  config: Record<string, { value: string; secret?: boolean }>;
  /** Extra environment for the CLI and the provider process. */
  env?: Record<string, string>;
}

export interface TestStack {
  readonly stack: automationTypes.Stack;
  readonly workDir: string;
  /** Everything the CLI printed, across all operations. */
  readonly output: string[];
  readonly home: string;
  /** The state file(s) the file backend wrote, concatenated: what really lands on disk. */
  stateFiles(): string;
  /** Removes the stack's folders (state, PULUMI_HOME, program). */
  dispose(): Promise<void>;
}

export async function createTestStack(options: StackOptions): Promise<TestStack> {
  const automation = requireInstalled<typeof automationTypes>("@pulumi/pulumi/automation");
  const base = mkdtempSync(join(tmpdir(), `aicp-${options.name}-`));
  const home = join(base, "pulumi-home");
  const state = join(base, "state");
  mkdirSync(home);
  mkdirSync(state);
  // The program folder sits below the installed packages so node resolution finds them.
  const workDir = mkdtempSync(join(inject("e2eRoot"), `${options.name}-`));
  const binary = pulumiBinary();
  const pulumiCommand = await automation.PulumiCommand.get({ root: dirname(dirname(binary)) });
  const aicp = requireInstalled<typeof import("../../sdk")>("pulumi-aicp");
  const pulumi = requireInstalled<typeof import("@pulumi/pulumi")>("@pulumi/pulumi");
  const stack = await automation.LocalWorkspace.createStack(
    { stackName: "dev", projectName: `aicp-${options.name}`, program: async () => options.program(aicp, pulumi) },
    {
      workDir,
      pulumiCommand,
      pulumiHome: home,
      projectSettings: { name: `aicp-${options.name}`, runtime: "nodejs", backend: { url: `file://${state}` } },
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: passphrase,
        PULUMI_BACKEND_URL: `file://${state}`,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        // The emulator makes notebooks ready in a fraction of a second; poll accordingly.
        AICP_POLL_INTERVAL_MS: "100",
        ...options.env,
      },
    },
  );
  await stack.setAllConfig(options.config);
  const output: string[] = [];
  return {
    stack,
    workDir,
    output,
    home,
    stateFiles: () => readTree(state),
    async dispose() {
      rmSync(base, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Options for an operation that record what the CLI printed. */
export function recording(target: TestStack) {
  return { onOutput: (line: string) => target.output.push(line) };
}

/** Count of resource operations other than "same" in an operation summary. */
export function changeCount(changes: Record<string, number> | undefined): number {
  return Object.entries(changes ?? {})
    .filter(([op]) => op !== "same")
    .reduce((sum, [, n]) => sum + n, 0);
}

/** A resource as the exported state holds it. */
export interface StateResource {
  type: string;
  urn: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  [field: string]: unknown;
}

/** Resources of the exported state whose type token matches. */
export function resourcesOfType(deployment: automationTypes.Deployment, type: string): StateResource[] {
  return ((deployment.deployment as { resources?: StateResource[] }).resources ?? []).filter((r) => r.type === type);
}

/** Every file below `dir`, concatenated (state, backups, history, locks). */
export function readTree(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");
}
