/**
 * The provider plugin from Python: the generated SDK (sdk/python) in a
 * program driven by Python's Automation API, through the real engine and the
 * plugin installed from its archive, against the emulator.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import type { CliProject } from "../support/cli-project";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { packPlugin, pluginHome, pythonWithSdk } from "../support/plugin-project";

const script = resolve(__dirname, "programs/python_stack.py");

describe("the provider plugin, from a Python program (Automation API)", () => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let project: CliProject;
  let python: string;
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const groups = () => emulator.listResourceGroups().filter((g) => g.user_id === emulatorCredentials.userId);
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET").map((r) => r.operation);

  /** Runs one step of the Python driver; its RESULT line, parsed. */
  async function step(name: string, env: Record<string, string> = {}): Promise<{ outputs?: Record<string, unknown>; changes?: Record<string, number> }> {
    const started = Date.now();
    const run = await new Promise<{ status: number | null; output: string }>((done) => {
      const child = spawn(python, [script, name], { cwd: project.dir, env: { ...project.env(), ...env } });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.on("close", (status) => done({ status, output }));
    });
    // For the closing note (speed belongs in bench/): what a Python step costs here.
    console.log(`python ${name}: ${Date.now() - started} ms`);
    expect(run.status, run.output).toBe(0);
    const line = run.output.split("\n").find((l) => l.startsWith("RESULT "));
    expect(line, run.output).toBeDefined();
    return JSON.parse(line!.slice("RESULT ".length));
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await createTrainingJob(emulator, "py-job", [{ replica_type: "Worker", replicas: 2 }], "tfjobs");
    packed = packPlugin();
    python = pythonWithSdk();
    project = await pluginHome("plugin-python", emulator, packed.archive);
  }, 600_000);
  afterAll(async () => {
    project?.dispose();
    packed?.dispose();
    await emulator?.close();
  });

  it("up creates a group and a notebook and reads templates, a job's pods and the disk metrics", async () => {
    const { outputs, changes } = await step("up");
    // The stack, the group and the notebook (the default provider is not counted).
    expect(changes).toEqual({ create: 3 });
    expect(groups().map((g) => g.rg_id)).toEqual([outputs!.rgId]);
    expect(ours().map((n) => [n.uuid, n.status])).toEqual([[outputs!.uuid, "Running"]]);
    expect(outputs).toMatchObject({ status: "Running", templates: 3, pods: ["py-job-worker-0", "py-job-worker-1"] });
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
});

