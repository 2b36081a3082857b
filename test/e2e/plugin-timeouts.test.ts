/**
 * The plugin honours a resource's customTimeouts, as the engine sends them
 * with each create, update and delete: the wait for the notebook's state is
 * bounded by the operation's timeout, for that operation only. Nothing of it
 * reaches the recorded inputs, so the next preview shows no change for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { packPlugin, yamlPluginProject } from "../support/plugin-project";

/** A notebook that asks for 20 s of waiting, and whose create the program bounds at 2 s. */
const program = (timeouts: string) => `
resources:
  slow:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: jupyter:2
      imageType: official
      serverType: jupyter
      readyTimeoutSeconds: 20
      replicaSpecs:
        specs: sku-1
        customCpu: 2
    options:
      customTimeouts:
${timeouts}
`;

describe("the provider plugin and customTimeouts", () => {
  let emulator: Emulator;
  let packed: ReturnType<typeof packPlugin>;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && n.status !== "Deleted");

  beforeAll(async () => {
    // Notebooks stay Pending until a test moves the emulator's clock an hour on.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    packed = packPlugin();
    stack = await yamlPluginProject("plugin-timeouts", emulator, program("        create: 2s"), packed.archive);
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    packed?.dispose();
    await emulator?.close();
  });

  it("a create waits for Running as long as customTimeouts.create says, not readyTimeoutSeconds", async () => {
    const up = await stack.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("AICP_WAIT");
    expect(up.output).toMatch(/is still "Pending" after 2 s, waiting for Running/);
    expect(ours()).toHaveLength(1);
  }, 300_000);

  it("the timeout is not recorded: the notebook keeps readyTimeoutSeconds 20, and the next up, once it runs, only waits", async () => {
    const exported = JSON.parse((await stack.pulumi("stack", "export")).output) as { deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> } };
    const notebook = exported.deployment.resources.find((r) => r.type === "aicp:index:Notebook");
    expect(notebook?.inputs?.readyTimeoutSeconds).toBe(20);
    expect(notebook?.outputs?.readyTimeoutSeconds).toBe(20);
    emulator.clock.advance(3_600_000);
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(ours().map((n) => n.status)).toEqual(["Running"]);
    const preview = await stack.pulumi("preview", "--expect-no-changes");
    expect(preview.status, preview.output).toBe(0);
  }, 300_000);

  it("destroy removes the notebook", async () => {
    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(ours()).toEqual([]);
  }, 300_000);
});
