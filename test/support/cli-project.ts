/**
 * A Pulumi project folder driven by the pulumi CLI itself (not the Automation
 * API): below the folder where the packed package is installed, with its own
 * file backend and PULUMI_HOME, and the provider's environment fallbacks set.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { inject } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials } from "./emulator";
import { pulumiBinary } from "./pulumi";

export interface CliProject {
  readonly dir: string;
  /** Everything under it that Pulumi wrote: state backend and PULUMI_HOME. */
  readonly home: string;
  env(): NodeJS.ProcessEnv;
  /** Runs a command in the project; resolves when it exits. */
  run(command: string, ...args: string[]): Promise<{ status: number | null; output: string }>;
  /** Starts a command and returns the process, for tests that interrupt it. */
  start(command: string, ...args: string[]): { child: ChildProcess; done: Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }> };
  dispose(): void;
}

export function cliProject(name: string, emulator: Emulator, program: string, extraEnv: Record<string, string> = {}): CliProject {
  const dir = mkdtempSync(join(inject("e2eRoot"), `${name}-`));
  const home = mkdtempSync(join(tmpdir(), `aicp-${name}-`));
  mkdirSync(join(home, "state"));
  writeFileSync(join(dir, "index.js"), program);
  writeFileSync(join(dir, "Pulumi.yaml"), `name: aicp-${name}\nruntime: nodejs\n`);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `aicp-${name}`, main: "index.js" }));
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PATH: `${resolve(pulumiBinary(), "..")}:${process.env.PATH}`,
    PULUMI_HOME: join(home, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${join(home, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "cli-passphrase",
    PULUMI_STACK: "ci",
    AICP_BASE_URL: emulator.url,
    QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
    QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
    CORESHUB_USER_ID: emulatorCredentials.userId,
    AICP_ZONE: "xb3",
    AICP_POLL_INTERVAL_MS: "100",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    ...extraEnv,
  });
  const start = (command: string, ...args: string[]) => {
    // Asynchronous: the emulator answers from this same process.
    const child = spawn(command, args, { cwd: dir, env: env(), timeout: 240_000 });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const done = new Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
      child.on("close", (status, signal) => resolve({ status, signal, output })),
    );
    return { child, done };
  };
  return {
    dir,
    home,
    env,
    start,
    run: (command, ...args) => start(command, ...args).done,
    dispose() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * What a pipeline adds to up, refresh and destroy: `--yes`, and no preview
 * run before the update (a test that checks a preview runs `pulumi preview`;
 * the preview of `up` is the same program run and provider calls twice).
 */
export const confirmed = ["--yes", "--skip-preview"];

/** A CLI project with its stack `ci` created, and a runner of pulumi commands on it. */
export interface CliStack {
  emulator: Emulator;
  project: CliProject;
  /** Runs `pulumi <args>` on stack ci, non-interactive, confirming the commands that ask (up, refresh, destroy). */
  pulumi(...args: string[]): Promise<{ status: number | null; output: string }>;
}

/** Creates the project and its stack `ci`; fails the test when the stack cannot be created. */
export async function cliStack(name: string, emulator: Emulator, program: string, extraEnv: Record<string, string> = {}): Promise<CliStack> {
  const project = cliProject(name, emulator, program, extraEnv);
  const confirm = (command: string | undefined) => (["up", "refresh", "destroy"].includes(command ?? "") ? confirmed : []);
  const pulumi = (...args: string[]) => project.run("pulumi", ...args, ...confirm(args[0]), "--non-interactive", "--stack", "ci");
  const init = await project.run("pulumi", "stack", "init", "ci", "--non-interactive");
  if (init.status !== 0) {
    project.dispose();
    throw new Error(`pulumi stack init failed: ${init.output}`);
  }
  return { emulator, project, pulumi };
}

/** Everything the project's file backend holds on disk, as one text (to look for secrets in plain text). */
export function stateOnDisk(project: CliProject): string {
  const dir = join(project.home, "state");
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json"))
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}
