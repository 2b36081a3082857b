/**
 * The provider plugin from Python and from Go: the generated SDKs (sdk/python,
 * sdk/go) in the same program driven by each language's Automation API
 * (test/e2e/programs), through the real engine and the plugin installed from
 * its archive, against the emulator.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import type { CliProject } from "../support/cli-project";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { packPlugin, pluginHome, pythonWithSdk } from "../support/plugin-project";

const programs = resolve(__dirname, "programs");

/** The Go program, built with the module proxy's modules (go.sum committed); the binary's path. */
function goProgram(): string {
  const out = join(mkdtempSync(join(tmpdir(), "aicp-gostack-")), "gostack");
  try {
    execFileSync("go", ["build", "-o", out, "."], { cwd: join(programs, "go"), env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly", GOSUMDB: "off" }, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(`building the Go program failed (Go 1.26+ and the Go module proxy are needed): ${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`);
  }
  return out;
}

const languages = [
  { language: "Python", command: () => [pythonWithSdk(), join(programs, "python_stack.py")] },
  { language: "Go", command: () => [goProgram()] },
];

describe.each(languages)("the provider plugin, from a $language program (Automation API)", ({ language, command }) => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let project: CliProject;
  let argv: string[];
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const groups = () => emulator.listResourceGroups().filter((g) => g.user_id === emulatorCredentials.userId);
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET").map((r) => r.operation);

  /** Runs one step of the Python driver; its RESULT line, parsed. */
  async function step(name: string, env: Record<string, string> = {}, extra: string[] = []): Promise<{ outputs?: Record<string, unknown>; changes?: Record<string, number> }> {
    const started = Date.now();
    const run = await new Promise<{ status: number | null; output: string }>((done) => {
      const child = spawn(argv[0]!, [...argv.slice(1), name, ...extra], { cwd: project.dir, env: { ...project.env(), ...env } });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.on("close", (status) => done({ status, output }));
    });
    // For the closing note (speed belongs in bench/): what a Python step costs here.
    console.log(`${language} ${name}: ${Date.now() - started} ms`);
    expect(run.status, run.output).toBe(0);
    const line = run.output.split("\n").find((l) => l.startsWith("RESULT "));
    expect(line, run.output).toBeDefined();
    return JSON.parse(line!.slice("RESULT ".length));
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await createTrainingJob(emulator, "auto-job", [{ replica_type: "Worker", replicas: 2 }], "tfjobs");
    packed = packPlugin();
    argv = command();
    project = await pluginHome(`plugin-${language.toLowerCase()}`, emulator, packed.archive);
  }, 600_000);
  afterAll(async () => {
    project?.dispose();
    packed?.dispose();
    if (language === "Go" && argv?.[0]) rmSync(resolve(argv[0], ".."), { recursive: true, force: true });
    await emulator?.close();
  });

  it("up creates a group and a notebook and reads templates, a job's pods and the disk metrics", async () => {
    const { outputs, changes } = await step("up");
    // The stack, the group and the notebook (the default provider is not counted).
    expect(changes).toEqual({ create: 3 });
    expect(groups().map((g) => g.rg_id)).toEqual([outputs!.rgId]);
    expect(ours().map((n) => [n.uuid, n.status])).toEqual([[outputs!.uuid, "Running"]]);
    expect(outputs).toMatchObject({ status: "Running", templates: 3, pods: ["auto-job-worker-0", "auto-job-worker-1"] });
    expect(outputs!.metrics).toContain("notebook_zfs_used_bytes");
  }, 300_000);

  it("a changed description and stop time update in place", async () => {
    emulator.clearRequests();
    const { changes } = await step("up", { GROUP_DESCRIPTION: "second", STOP_TIME: "2031-01-01T00:00:00Z" });
    expect(changes).toMatchObject({ update: 2 });
    expect(writes().sort()).toEqual(["setStopTime", "updateResourceGroup"]);
    expect(String(ours()[0]!.stop_time)).toMatch(/^2031-01-01/);
  }, 300_000);

  it("refresh changes nothing, and a preview after it shows no change", async () => {
    const env = { GROUP_DESCRIPTION: "second", STOP_TIME: "2031-01-01T00:00:00Z" };
    const refresh = await step("refresh", env);
    expect(Object.keys(refresh.changes ?? {})).toEqual(["same"]);
    const preview = await step("preview", env);
    expect(Object.keys(preview.changes ?? {})).toEqual(["same"]);
  }, 300_000);

  it("destroy removes the group and the notebook", async () => {
    const { changes } = await step("destroy");
    expect(changes).toEqual({ delete: 3 });
    expect(ours()).toEqual([]);
    expect(groups()).toEqual([]);
  }, 300_000);

  // Python only (the README's Go is a fragment, not a program). After destroy the stack holds nothing: the
  // preview shows the stack and the README program's two resources to create.
  if (language !== "Python") return;
  it("the README's Python program previews cleanly", async () => {
    const readme = readFileSync(resolve(__dirname, "../../README.md"), "utf8");
    const block = /^```python\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf("## Every Pulumi language")))?.[1];
    expect(block, "the README's plugin section has a python block").toBeDefined();
    const file = join(project.dir, "readme_program.py");
    writeFileSync(file, block!);
    const { changes } = await step("preview-file", {}, [file]);
    expect(changes).toEqual({ create: 3 });
  }, 300_000);
});

