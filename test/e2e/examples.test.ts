/**
 * Every example of examples/ through the real engine against the emulator: the JavaScript ones as inline programs
 * of the Automation API, the TypeScript one as a user runs it, `pulumi up` on its folder (the nodejs language host
 * runs its index.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createTrainingJob, emulatorCredentials, startTestEmulator } from "../support/emulator";
import type { CliProject } from "../support/cli-project";
import { exampleCliStack, exampleStack } from "../support/examples";
import { changeCount, recording, type TestStack } from "../support/pulumi";

const user = emulatorCredentials.userId;

describe("examples", () => {
  let emulator: Emulator;
  const stacks: TestStack[] = [];
  const projects: CliProject[] = [];
  const own = () => emulator.listNotebooks().filter((n) => n.namespace === user);

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
    for (const p of projects) p.dispose();
    await emulator?.close();
  });

  async function run(example: string, config: Record<string, string> = {}) {
    const target = await exampleStack(example, emulator, config);
    stacks.push(target);
    return target;
  }

  it("quickstart: a group and a running GPU notebook, no changes the second time", async () => {
    const target = await run("quickstart");
    await target.stack.up(recording(target));
    const outputs = await target.stack.outputs();
    expect(own().map((n) => n.uuid)).toEqual([outputs.notebookId!.value]);
    expect(outputs.notebookStatus!.value).toBe("Running");
    expect(String(outputs.template!.value)).toMatch(/\(1 x /);
    expect(changeCount((await target.stack.up(recording(target))).summary.resourceChanges)).toBe(0);
    await target.stack.destroy(recording(target));
    expect(own()).toEqual([]);
  }, 240_000);

  it("quickstart-typescript: index.ts as written, with pulumi up on the folder", async () => {
    const { project, pulumi } = await exampleCliStack("quickstart-typescript", emulator);
    projects.push(project);
    const up = await pulumi("up");
    expect(up.status, up.output).toBe(0);
    const outputs = JSON.parse((await pulumi("stack", "output", "--json")).output) as Record<string, unknown>;
    expect(own().map((n) => n.uuid)).toEqual([outputs.notebookId]);
    expect(
      emulator
        .listResourceGroups()
        .filter((g) => g.user_id === user)
        .map((g) => g.rg_id),
    ).toEqual([outputs.groupId]);
    expect(outputs.notebookStatus).toBe("Running");
    expect(String(outputs.templateName)).toMatch(/\(1 x /);
    const destroy = await pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(own()).toEqual([]);
  }, 120_000);

  it("notebook-from-template: the smallest template with a GPU of the asked model", async () => {
    const target = await run("notebook-from-template", { gpuModel: "H800" });
    await target.stack.up(recording(target));
    const outputs = await target.stack.outputs();
    expect(String(outputs.gpuName!.value)).toContain("H800");
    expect(outputs.gpus!.value).toBe(1);
    const [notebook] = own();
    expect((notebook!.replica_specs as Record<string, unknown>).custom_gpu).toBe(1);
    expect(outputs.status!.value).toBe("Running");
    await target.stack.destroy(recording(target));
  }, 240_000);

  it("stop-at-night: desiredState and stopTime from config, applied in place", async () => {
    const target = await run("stop-at-night", { stopTime: "2030-01-01T20:00:00Z" });
    await target.stack.up(recording(target));
    expect(own()[0]).toMatchObject({ status: "Running" });
    const uuid = own()[0]!.uuid;
    await target.stack.setConfig("aicp-ex-stop-at-night:desiredState", { value: "Stopped" });
    await target.stack.setConfig("aicp-ex-stop-at-night:stopTime", { value: "2030-01-02T20:00:00Z" });
    const parked = await target.stack.up(recording(target));
    expect(parked.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(own()[0]).toMatchObject({ uuid, status: "Stopped" });
    expect(String(own()[0]!.stop_time)).toMatch(/^2030-01-02T20:00:00/);
    await target.stack.setConfig("aicp-ex-stop-at-night:desiredState", { value: "Running" });
    await target.stack.up(recording(target));
    expect(own()[0]).toMatchObject({ uuid, status: "Running" });
    await target.stack.destroy(recording(target));
  }, 240_000);

  it("monitoring: disk usage and training pods as outputs", async () => {
    await createTrainingJob(emulator, "llm-eval", [{ replica_type: "Worker", replicas: 3 }]);
    const target = await run("monitoring", { trainName: "llm-eval" });
    await target.stack.up(recording(target));
    const outputs = await target.stack.outputs();
    expect(outputs.diskUsedBytes!.value).toBeGreaterThan(0);
    expect(outputs.diskUsedPercent!.value).toBeGreaterThanOrEqual(0);
    expect(outputs.diskUsedPercent!.value).toBeLessThanOrEqual(100);
    const pods = outputs.trainingPods!.value as Array<{ name: string; phase: string }>;
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.phase === "Running")).toBe(true);
    await target.stack.destroy(recording(target));
  }, 240_000);
});
