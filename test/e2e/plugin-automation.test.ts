/**
 * The provider plugin from Python: the generated SDK (sdks/python) in a
 * program driven by Python's Automation API (test/e2e/programs), through the
 * real engine and the plugin run from the repository's bin/ (named in the
 * project's Pulumi.yaml; how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's), against the emulator: one lifecycle smoke
 * (up, refresh, destroy) and the README's Python program previewed. The
 * lifecycle's cases one by one run in-process
 * (test/contract/plugin-lifecycle.test.ts); the Go program, and the
 * README's, are type-checked against the generated Go SDK (go vet), not run.
 *
 * What only the engine shows: the Python SDK's generated types and its
 * function calls (Promise and Output forms) reaching the plugin through the
 * engine, and the Automation API's summaries of what the engine did.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import type { CliProject } from "../support/cli-project";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { pluginHome, pythonWithSdk, repositoryPlugin } from "../support/plugin-project";

const programs = resolve(__dirname, "programs");

/** Type-checks the Go program in `dir` against the generated Go SDK (go vet; the module proxy's modules, go.sum committed). */
function vetGoProgram(dir = join(programs, "go")): void {
  try {
    execFileSync("go", ["vet", "."], {
      cwd: dir,
      env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly", GOSUMDB: "off" },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw new Error(
      `go vet of the Go program failed (Go 1.26+ and the Go module proxy are needed): ${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`,
    );
  }
}

describe("the Go program on the generated Go SDK", () => {
  it("compiles and passes go vet (test/e2e/programs/go)", () => {
    expect(vetGoProgram).not.toThrow();
  }, 600_000);

  /** Vets `block` as a module of its own beside the test program's requirements (go.mod, go.sum), the SDK replaced by the clone's sdks/go. */
  function vetBlock(block: string): void {
    const dir = mkdtempSync(join(tmpdir(), "aicp-block-go-"));
    try {
      const goMod = readFileSync(join(programs, "go", "go.mod"), "utf8")
        .replace(/^module .*$/m, "module aicp.local/readme")
        .replace(
          /^replace github\.com\/pulumi-aicp\/pulumi-aicp\/sdks\/go => .*$/m,
          `replace github.com/pulumi-aicp/pulumi-aicp/sdks/go => ${resolve("sdks/go")}`,
        );
      writeFileSync(join(dir, "go.mod"), goMod);
      copyFileSync(join(programs, "go", "go.sum"), join(dir, "go.sum"));
      writeFileSync(join(dir, "main.go"), block);
      expect(() => vetGoProgram(dir)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("examples/quickstart-go, as written, compiles and passes go vet", () => {
    vetBlock(readFileSync(resolve("examples/quickstart-go/main.go"), "utf8"));
  }, 600_000);

  it("the README's Go program, as written, compiles and passes go vet", () => {
    const block = /^```go\n([\s\S]*?)^```$/m.exec(readFileSync(resolve("README.md"), "utf8"))?.[1] ?? "";
    expect(block).toContain('"github.com/pulumi-aicp/pulumi-aicp/sdks/go/aicp"');
    expect(block).toContain("func main() {");
    vetBlock(block);
  }, 600_000);

  it("the registry page's Go examples (docs/_index.md), as written, compile and pass go vet", () => {
    const blocks = [...readFileSync(resolve("docs/_index.md"), "utf8").matchAll(/^```go\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    for (const block of blocks) vetBlock(block);
  }, 600_000);
});

describe("the provider plugin, from a Python program (Automation API)", () => {
  const language = "Python";
  let emulator: Emulator;
  let project: CliProject;
  let argv: string[];
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const groups = () => emulator.listResourceGroups().filter((g) => g.user_id === emulatorCredentials.userId);

  /** Runs one step of the Python driver; its RESULT line, parsed. */
  async function step(
    name: string,
    env: Record<string, string> = {},
    extra: string[] = [],
  ): Promise<{ outputs?: Record<string, unknown>; changes?: Record<string, number> }> {
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
    await createTrainingJob(emulator, "nightly-finetune", [{ replica_type: "Worker", replicas: 1 }]);
    argv = [pythonWithSdk(), join(programs, "python_stack.py")];
    project = await pluginHome(`plugin-${language.toLowerCase()}`, emulator, repositoryPlugin);
  }, 600_000);
  afterAll(async () => {
    project?.dispose();
    await emulator?.close();
  });

  it(
    "smoke: up creates a group and a notebook and reads templates, the training jobs, a job's pods and the disk metrics; " +
      "refresh changes nothing; destroy removes them",
    async () => {
      const { outputs, changes } = await step("up");
      // The stack, the group and the notebook (the default provider is not counted).
      expect(changes).toEqual({ create: 3 });
      expect(groups().map((g) => g.rg_id)).toEqual([outputs!.rgId]);
      expect(ours().map((n) => [n.uuid, n.status])).toEqual([[outputs!.uuid, "Running"]]);
      expect(outputs).toMatchObject({ status: "Running", templates: 3, pods: ["auto-job-worker-0", "auto-job-worker-1"] });
      // The two jobs beforeAll made, read by get_training_jobs.
      expect(outputs!.jobs).toEqual(["auto-job", "nightly-finetune"]);
      // get_resource_groups_output, called with the group's name once it exists, finds that group.
      expect(outputs!.listedGroups).toEqual([outputs!.rgId]);
      expect(outputs!.metrics).toContain("notebook_zfs_used_bytes");

      const refresh = await step("refresh");
      expect(Object.keys(refresh.changes ?? {})).toEqual(["same"]);

      const destroy = await step("destroy");
      expect(destroy.changes).toEqual({ delete: 3 });
      expect(ours()).toEqual([]);
      expect(groups()).toEqual([]);
    },
    300_000,
  );

  // After destroy the stack holds nothing: the preview shows the stack and the README program's two resources to create.
  it("the registry page's Python functions program (docs/_index.md) previews, every function answering", async () => {
    const block = [...readFileSync(resolve(__dirname, "../../docs/_index.md"), "utf8").matchAll(/^```python\n([\s\S]*?)^```$/gm)]
      .map((m) => m[1]!)
      .find((b) => b.includes("get_training_pods"));
    expect(block, "docs/_index.md has a python functions program").toBeDefined();
    const file = join(project.dir, "registry_functions.py");
    writeFileSync(file, block!);
    const { changes } = await step("preview-file", {}, [file]);
    expect(changes).toEqual({ create: 2 });
  }, 300_000);

  it("the README's Python program previews cleanly", async () => {
    const readme = readFileSync(resolve(__dirname, "../../README.md"), "utf8");
    const block = /^```python\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf("## A program in each language")))?.[1];
    expect(block, "the README's programs have a python block").toBeDefined();
    const file = join(project.dir, "readme_program.py");
    writeFileSync(file, block!);
    const { changes } = await step("preview-file", {}, [file]);
    expect(changes).toEqual({ create: 3 });
  }, 300_000);
});
