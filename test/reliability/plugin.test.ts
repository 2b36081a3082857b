/**
 * The reliability suite's two decisive cases against the provider plugin
 * (installed from its archive, a YAML program, the real engine): a create
 * whose answer is lost is sent once and recorded, and one Ctrl-C during a wait
 * for Running records the notebook it made. Duplicates and orphans are counted
 * into the reliability table like the dynamic provider's cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorCredentials, providerWaiting, startTestEmulator } from "../support/emulator";
import { packPlugin, yamlPluginProject } from "../support/plugin-project";
import { eventually } from "../support/poll";
import { recordCase } from "../support/reliability";

const program = `
resources:
  patient:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: jupyter:1
      imageType: official
      serverType: jupyter
      replicaSpecs:
        specs: sku-1
        customCpu: 2
      readyTimeoutSeconds: 3600
outputs:
  uuid: \${patient.uuid}
`;

/** The notebook ids the stack records. */
function recorded(exported: string): string[] {
  const resources = (JSON.parse(exported.slice(exported.indexOf("{"))) as { deployment: { resources?: Array<{ type: string; id?: string }> } }).deployment.resources ?? [];
  return resources.filter((r) => r.type === "aicp:index:Notebook").map((r) => r.id!);
}

describe("the provider plugin under faults and interruption", () => {
  let packed: ReturnType<typeof packPlugin>;
  beforeAll(() => {
    packed = packPlugin();
  }, 300_000);
  afterAll(() => packed?.dispose());

  it("a create whose answer is lost (latency above the request timeout) is sent once, found and recorded", async () => {
    const emulator = await startTestEmulator();
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    const stack = await yamlPluginProject("plugin-lost-answer", emulator, program, packed.archive, { AICP_REQUEST_TIMEOUT_SECONDS: "1" });
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      emulator.addFault({ kind: "latency", latencyMs: 2500, operation: "createNotebook", count: 1 });
      const up = await stack.pulumi("up");
      expect(up.status, up.output).toBe(0);
      duplicates = Math.max(0, live().length - 1);
      expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(1);
      expect(recorded((await stack.pulumi("stack", "export")).output)).toEqual(live().map((n) => n.uuid));
      const destroy = await stack.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      orphans = live().length;
      expect(duplicates).toBe(0);
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "plugin", name: "plugin: latency above the timeout on create notebook", passed, duplicates, orphans, leaks: 0 });
      stack.project.dispose();
      await emulator.close();
    }
  }, 300_000);

  it("one SIGINT ends the plugin's wait for Running and the notebook it made is recorded; the next up sends no create", async () => {
    // Running only when the test moves the emulator's clock: the program would wait an hour.
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    const stack = await yamlPluginProject("plugin-ctrl-c", emulator, program, packed.archive);
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      const { child, done } = stack.project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      await eventually(() => providerWaiting(emulator), "the plugin to wait for the notebook to be Running", 120_000);
      child.kill("SIGINT");
      const interrupted = await done;
      expect(interrupted.status, interrupted.output).not.toBe(0);
      expect(interrupted.output).toContain("cancelled (Ctrl-C)");
      expect(recorded((await stack.pulumi("stack", "export")).output)).toEqual(live().map((n) => n.uuid));
      emulator.clock.advance(3_600_000);
      emulator.clearRequests();
      const again = await stack.pulumi("up");
      expect(again.status, again.output).toBe(0);
      expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(0);
      duplicates = Math.max(0, live().length - 1);
      const destroy = await stack.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      orphans = live().length;
      expect(duplicates).toBe(0);
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "plugin", name: "plugin: one Ctrl-C during a wait for Running", passed, duplicates, orphans, leaks: 0 });
      stack.project.dispose();
      await emulator.close();
    }
  }, 300_000);
});
