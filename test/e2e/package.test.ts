/**
 * The package as published: `npm pack` holds compiled JS and types only, and a
 * fresh Pulumi project outside the repository, with the tarball installed,
 * deploys and destroys through the pulumi CLI itself (`pulumi up` on its
 * Pulumi.yaml), as does the CI example's deploy script.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

const repo = resolve(__dirname, "../..");

describe("the published package", () => {
  let emulator: Emulator;
  let project: CliProject;
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const sh = (command: string, ...args: string[]) => project.run(command, ...args);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    project = cliProject("cli-project", emulator, readFileSync(resolve(repo, "examples/quickstart/index.js"), "utf8"));
    cpSync(resolve(repo, "examples/ci/deploy.sh"), join(project.dir, "deploy.sh"));
  });
  afterAll(async () => {
    project?.dispose();
    await emulator?.close();
  });

  it("packs compiled JavaScript and type declarations, and the provider plugin's launcher and schema", () => {
    const [pack] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as Array<{
      files: Array<{ path: string }>;
    }>;
    const paths = pack!.files.map((f) => f.path);
    expect(paths).toContain("dist/sdk/index.js");
    expect(paths).toContain("dist/sdk/index.d.ts");
    expect(paths).toContain("dist/provider/index.js");
    expect(paths).toContain("dist/plugin/main.js");
    // The schema builder needs the TypeScript compiler, a development dependency: it stays out.
    expect(paths.filter((p) => p.includes("schema-build") || p.includes("schema-types"))).toEqual([]);
    // The guardrails pack: its folder and its executable for --policy-pack, its code in dist/policy (docs/guardrails.md).
    expect(paths).toContain("dist/policy/index.js");
    expect(paths).toContain("dist/policy/analyzer.js");
    expect(paths).toContain("dist/policy/node-check.js");
    expect(paths.filter((p) => !/\.(js|d\.ts)$/.test(p)).sort()).toEqual([
      "README.md",
      "bin/pulumi-resource-aicp",
      "package.json",
      "policy/pack/PulumiPolicy.yaml",
      "policy/pack/aicp-guardrails",
      "policy/pack/package.json",
      "schema.json",
    ]);
    // The engine starts the executable pack itself: installed, it stays executable.
    expect(statSync(join(inject("e2eRoot"), "node_modules/pulumi-aicp/policy/pack/aicp-guardrails")).mode & 0o111).not.toBe(0);
  });

  it("runs the CI script: preview sends no write, up deploys and writes outputs, a second preview shows no change", async () => {
    emulator.clearRequests();
    const preview = await sh("bash", "deploy.sh", "preview");
    expect(preview.status, preview.output).toBe(0);
    // The stack, the group, the notebook and the stack's mark (sdk/forward.ts StackMark).
    expect(preview.output).toMatch(/\+ 4 to create/);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);

    const up = await sh("bash", "deploy.sh", "up");
    expect(up.status, up.output).toBe(0);
    const outputs = JSON.parse(readFileSync(join(project.dir, "stack-outputs.json"), "utf8")) as Record<string, string>;
    expect(own().map((n) => n.uuid)).toEqual([outputs.notebookId]);

    emulator.clearRequests();
    const again = await sh("bash", "deploy.sh", "preview");
    expect(again.status, again.output).toBe(0);
    // The stack, the group, the notebook and the stack's mark (sdk/forward.ts StackMark).
    expect(again.output).toMatch(/4 unchanged/);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
    expect((await sh("bash", "deploy.sh", "nonsense")).status).toBe(2);
  }, 300_000);

  it("destroys through the CLI and leaves nothing behind", async () => {
    const destroy = await sh("pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci");
    expect(destroy.status, destroy.output).toBe(0);
    expect(own()).toEqual([]);
  }, 300_000);
});
