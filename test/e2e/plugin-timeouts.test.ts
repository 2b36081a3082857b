/**
 * The plugin honours a resource's customTimeouts, as the engine sends them
 * with each create, update and delete: the wait for the notebook's state is
 * bounded by the operation's timeout, for that operation only. Nothing of it
 * reaches the state: the notebook keeps its own readyTimeoutSeconds (or the
 * default), so the next preview shows no change for it. The plugin runs from
 * the repository's bin/ (how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

/** `slow` asks for 20 s of waiting, `plain` sets no limit (600 s by default); both bounded by `timeouts`. */
const program = (image: string, timeouts: string) => {
  const notebook = (limit: string) => `
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: ${image}
      imageType: official
      serverType: jupyter${limit}
      replicaSpecs:
        specs: sku-1
        customCpu: 2
    options:
      customTimeouts:
        ${timeouts}`;
  return `
resources:
  slow:${notebook("\n      readyTimeoutSeconds: 20")}
  plain:${notebook("")}
`;
};

interface Exported {
  deployment: { resources: Array<{ urn: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
}

describe("the provider plugin and customTimeouts", () => {
  let emulator: Emulator;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && n.status !== "Deleted");
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
  /** readyTimeoutSeconds as the state records it, input and output, per notebook. */
  const recordedLimits = async () => {
    const exported = JSON.parse((await stack.pulumi("stack", "export")).output) as Exported;
    return Object.fromEntries(
      exported.deployment.resources
        .filter((r) => r.urn.includes("aicp:index:Notebook"))
        .map((r) => [r.urn.split("::").pop(), [r.inputs?.readyTimeoutSeconds, r.outputs?.readyTimeoutSeconds]]),
    );
  };

  beforeAll(async () => {
    // Notebooks stay Pending until a test moves the emulator's clock an hour on.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    stack = await yamlPluginProject("plugin-timeouts", emulator, program("jupyter:2", "create: 2s"), repositoryPlugin);
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    await emulator?.close();
  });

  it("a create waits for Running as long as customTimeouts.create says, not readyTimeoutSeconds, and records neither timeout", async () => {
    const up = await stack.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("AICP_WAIT");
    expect(up.output.match(/is still "Pending" after 2 s, waiting for Running/g)).toHaveLength(2);
    expect(ours()).toHaveLength(2);
    // The program's 20; for plain, which sets none, the default 600 as an output (its input stays unset).
    expect(await recordedLimits()).toEqual({ slow: [20, 20], plain: [undefined, 600] });
  }, 300_000);

  it("once the notebooks run, the next up only waits: no write, and then no change", async () => {
    emulator.clock.advance(3_600_000);
    emulator.clearRequests();
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(writes()).toEqual([]);
    expect(ours().map((n) => n.status)).toEqual(["Running", "Running"]);
    const preview = await stack.pulumi("preview", "--expect-no-changes");
    expect(preview.status, preview.output).toBe(0);
  }, 300_000);

  it("an update's wait (a new image restarts the notebook) is bounded by customTimeouts.update", async () => {
    stack.program(program("jupyter:3", "update: 3s"));
    const up = await stack.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output.match(/is still "Pending" after 3 s, waiting for Running/g)).toHaveLength(2);
    expect(ours().map((n) => n.image)).toEqual(["jupyter:3", "jupyter:3"]);
    expect(await recordedLimits()).toEqual({ slow: [20, 20], plain: [undefined, 600] });
    emulator.clock.advance(3_600_000);
    const again = await stack.pulumi("up");
    expect(again.status, again.output).toBe(0);
  }, 300_000);

  it("destroy, under customTimeouts.delete, removes both notebooks", async () => {
    stack.program(program("jupyter:3", "delete: 30s"));
    expect((await stack.pulumi("up")).status).toBe(0);
    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(ours()).toEqual([]);
  }, 300_000);
});
