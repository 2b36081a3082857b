/**
 * The README's guardrails section, followed word for word by a user: in a
 * project outside the repository and outside the folder the other engine
 * tests share, its `npm install` line (the packed tarball for its
 * placeholder path), its `policy-config.json`, its program as `index.ts`, then
 * its `pulumi preview` and `pulumi up` lines, `up` as a pipeline runs it
 * (`--yes --skip-preview`). The preview fails naming the rules the section
 * says the program breaks; `up` fails and the platform receives no write:
 * the emulator's request log holds no create.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";

/** docs/guardrails.md, the page the README sends users to: its blocks of each language in order. */
function guardrailsSection() {
  const section = readFileSync(resolve("docs/guardrails.md"), "utf8");
  const blocks = (language: string) => [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);
  return { sh: blocks("sh")[0]!, json: blocks("json")[0]!, ts: blocks("ts")[0]! };
}

describe("docs/guardrails.md, copied into a project of its own", () => {
  let emulator: Emulator;
  let project: CliProject;
  let dir: string;

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    // The helper's environment (state backend, PULUMI_HOME, the emulator's settings), in a folder of the user's own.
    project = cliProject("readme-guardrails", emulator, "");
    dir = mkdtempSync(join(tmpdir(), "aicp-guardrails-user-"));
  });
  afterAll(async () => {
    project?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await emulator?.close();
  });

  it("installs as written, refuses the over-limit program in preview, and up sends no create", async () => {
    const { sh, json, ts } = guardrailsSection();
    const lines = sh
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter(Boolean);
    const tarball = inject("packedFiles").find((file) => file.endsWith(".tgz"))!;
    const [install, preview, up] = lines;
    expect(install).toMatch(/^npm install \/path\/to\/pulumi-aicp-<version>\.tgz /);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "guardrails-user", private: true }));
    writeFileSync(join(dir, "Pulumi.yaml"), "name: guardrails-user\nruntime: nodejs\n");
    writeFileSync(join(dir, "index.ts"), ts);
    writeFileSync(join(dir, "policy-config.json"), json);
    const [npm, ...installArgs] = install!.replace("/path/to/pulumi-aicp-<version>.tgz", join(inject("e2eRoot"), tarball)).split(/\s+/);
    execFileSync(npm!, [...installArgs, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });

    const run = (line: string, ...extra: string[]) => {
      const [command, ...args] = line.split(/\s+/);
      return new Promise<{ status: number | null; output: string }>((done) => {
        let output = "";
        const child = spawn(command!, [...args, ...extra, "--non-interactive", "--stack", "ci"], { cwd: dir, env: project.env() });
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("close", (status: number | null) => done({ status, output }));
      });
    };
    const init = await run("pulumi stack init");
    expect(init.status, init.output).toBe(0);
    emulator.clearRequests();

    const previewed = await run(preview!);
    expect(previewed.status, previewed.output).not.toBe(0);
    expect(previewed.output).toContain("Notebook 'big': replicaSpecs holds 8 GPUs, more than the 4 a notebook may hold (maxGpusPerNotebook)");
    expect(previewed.output).toMatch(/Notebook 'big': stopTime 2030-12-31T18:00:00Z is \d+ hours away, more than 168 hours \(maxLifetimeHours\)/);
    expect(previewed.output).toMatch(/the stack commits \d+ GPU-hours, over the budget of 2000 \(budgetGpuHours\)/);

    const updated = await run(up!, "--yes", "--skip-preview");
    expect(updated.status, updated.output).not.toBe(0);
    expect(updated.output).toMatch(/\[mandatory\] +aicp-notebook-(max-gpus|max-lifetime) +\(pulumi-nodejs:dynamic\/aicp:Notebook: big\)/);
    const writes = emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
    expect(writes).toEqual([]);
    expect(emulator.listNotebooks()).toEqual([]);
  }, 300_000);
});
