/**
 * The package as published: `npm pack` holds compiled JS and types only, and a
 * fresh Pulumi project outside the repository, with the tarball installed,
 * deploys and destroys through the pulumi CLI itself (`pulumi up` on its
 * Pulumi.yaml), as does the CI example's deploy script.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { pulumiBinary } from "../support/pulumi";

const repo = resolve(__dirname, "../..");

describe("the published package", () => {
  let emulator: Emulator;
  let project: string;
  let home: string;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // Below the folder where the tarball is installed: node resolves the package from there.
    project = mkdtempSync(join(inject("e2eRoot"), "cli-project-"));
    home = mkdtempSync(join(tmpdir(), "aicp-cli-"));
    mkdirSync(join(home, "state"));
    cpSync(resolve(repo, "examples/quickstart/index.js"), join(project, "index.js"));
    cpSync(resolve(repo, "examples/ci/deploy.sh"), join(project, "deploy.sh"));
    writeFileSync(join(project, "Pulumi.yaml"), "name: aicp-cli-project\nruntime: nodejs\n");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "aicp-cli-project", main: "index.js" }));
  });
  afterAll(async () => {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    await emulator?.close();
  });

  function env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      PATH: `${resolve(pulumiBinary(), "..")}:${process.env.PATH}`,
      PULUMI_HOME: join(home, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(home, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "ci-passphrase",
      PULUMI_STACK: "ci",
      // The provider's environment fallbacks, as a pipeline sets them from its secret store.
      AICP_BASE_URL: emulator.url,
      QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      CORESHUB_USER_ID: emulatorCredentials.userId,
      AICP_POLL_INTERVAL_MS: "100",
    };
  }

  /** Runs a command asynchronously: the emulator answers from this same process. */
  function sh(command: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
    return new Promise((done) => {
      const child = spawn(command, args, { cwd: project, env: env(), timeout: 240_000 });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("close", (status) => done({ status, output }));
    });
  }

  it("packs compiled JavaScript and type declarations only", () => {
    const [pack] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as Array<{
      files: Array<{ path: string }>;
    }>;
    const paths = pack!.files.map((f) => f.path);
    expect(paths).toContain("dist/sdk/index.js");
    expect(paths).toContain("dist/sdk/index.d.ts");
    expect(paths).toContain("dist/provider/index.js");
    expect(paths.filter((p) => !/\.(js|d\.ts)$/.test(p)).sort()).toEqual(["README.md", "package.json"]);
  });

  it("runs the CI script: preview sends no write, up deploys and writes outputs, a second preview shows no change", async () => {
    emulator.clearRequests();
    const preview = await sh("bash", "deploy.sh", "preview");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/\+ 3 to create/);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);

    const up = await sh("bash", "deploy.sh", "up");
    expect(up.status, up.output).toBe(0);
    const outputs = JSON.parse(readFileSync(join(project, "stack-outputs.json"), "utf8")) as Record<string, string>;
    expect(own().map((n) => n.uuid)).toEqual([outputs.notebookId]);

    emulator.clearRequests();
    const again = await sh("bash", "deploy.sh", "preview");
    expect(again.status, again.output).toBe(0);
    expect(again.output).toMatch(/3 unchanged/);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
    expect((await sh("bash", "deploy.sh", "nonsense")).status).toBe(2);
  }, 300_000);

  it("destroys through the CLI and leaves nothing behind", async () => {
    const destroy = await sh("pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci");
    expect(destroy.status, destroy.output).toBe(0);
    expect(own()).toEqual([]);
  }, 300_000);
});
