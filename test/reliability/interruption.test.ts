/**
 * Interruption: SIGINT to a `pulumi up` process while notebooks are being
 * created, then what Pulumi requires (`pulumi refresh --clear-pending-creates`
 * after a hard stop), then `pulumi up`: the stack converges, the emulator holds
 * exactly what the program declares, and destroy leaves nothing behind.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { emulatorCredentials, providerWaiting, startTestEmulator } from "../support/emulator";
import { eventually } from "../support/poll";
import { recordCase } from "../support/reliability";

const program = `
const aicp = require("pulumi-aicp");
const group = new aicp.ResourceGroup("team", { skuId: "sku-1", podTypes: ["instance"] });
for (const name of ["alpha", "beta", "gamma"]) {
  new aicp.Notebook(name, {
    chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter",
    replicaSpecs: { specs: "sku-1", customCpu: 2 },
  });
}
exports.groupId = group.rgId;
`;

describe("interrupted pulumi up", () => {
  const projects: CliProject[] = [];
  afterAll(() => projects.forEach((p) => p.dispose()));

  for (const interrupts of [1, 2]) {
    const name = interrupts === 1 ? "one SIGINT (Pulumi finishes what is in flight)" : "two SIGINTs (Pulumi stops at once)";
    it(
      name,
      async () => {
        // Slow readiness: creates are answered at once, and Pulumi then waits for Running.
        const emulator: Emulator = await startTestEmulator({ notebookReadyDelayMs: 6000 });
        const user = emulatorCredentials.userId;
        const held = () => ({
          notebooks: emulator.listNotebooks().filter((n) => n.namespace === user),
          groups: emulator.listResourceGroups().filter((g) => g.user_id === user),
        });
        let passed = false;
        let duplicates = 0;
        let orphans = 0;
        try {
          const project = cliProject(`interrupt-${interrupts}`, emulator, program);
          projects.push(project);
          const init = await project.run("pulumi", "stack", "init", "ci", "--non-interactive");
          expect(init.status, init.output).toBe(0);
          const { child, done } = project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
          const started = Date.now();
          // Interrupt once the platform holds all three notebooks while Pulumi still waits for them.
          while (held().notebooks.length < 3 && Date.now() - started < 60_000) {
            await new Promise((r) => setTimeout(r, 20));
          }
          const pendingBeforeInterrupt = held().notebooks.filter((n) => n.status === "Pending").length;
          for (let i = 0; i < interrupts; i++) {
            child.kill("SIGINT");
            await new Promise((r) => setTimeout(r, 100));
          }
          const interrupted = await done;
          // The interrupt landed while Pulumi was still creating them (waiting for Running).
          expect(pendingBeforeInterrupt).toBe(3);
          expect(interrupted.output).toMatch(/\^C received|cancel/i);
          expect(interrupted.status === 0 && interrupted.signal === null, interrupted.output).toBe(false);
          emulator.clearFaults();

          const recorded = await project.run("pulumi", "stack", "export", "--stack", "ci");
          const deployment = JSON.parse(recorded.output.slice(recorded.output.indexOf("{"))).deployment as {
            resources?: Array<{ type: string }>;
            pending_operations?: unknown[];
          };
          const inState = (deployment.resources ?? []).filter((r) => r.type === "pulumi-nodejs:dynamic/aicp:Notebook").length;
          const pending = (deployment.pending_operations ?? []).length;
          emulator.clearRequests();
          const refresh = await project.run("pulumi", "refresh", "--yes", "--non-interactive", "--clear-pending-creates", "--stack", "ci");
          expect(refresh.status, refresh.output).toBe(0);
          const up = await project.run("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
          expect(up.status, up.output).toBe(0);

          const { notebooks, groups } = held();
          const creates = emulator.requests().filter((r) => r.operation === "createNotebook").length;
          // Reported in the closing note: what the interrupt left and what the next up adopted.
          console.log(
            `${name}: after the interrupt ${inState} of 3 notebooks were recorded and ${pending} creates pending; the next up sent ${creates} creates`,
          );
          // Whatever the interrupt left unrecorded was adopted by name, never created twice.
          expect(creates).toBe(0);
          const names = notebooks.map((n) => String(n.name));
          duplicates = notebooks.length - new Set(names).size + Math.max(0, groups.length - 1);
          expect(notebooks).toHaveLength(3);
          expect(new Set(names).size).toBe(3);
          expect(groups).toHaveLength(1);

          const destroy = await project.run("pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci");
          expect(destroy.status, destroy.output).toBe(0);
          orphans = held().notebooks.length + held().groups.length;
          expect(orphans).toBe(0);
          passed = true;
        } finally {
          recordCase({ suite: "interruption", name, passed, duplicates, orphans, leaks: 0 });
          await emulator.close();
        }
      },
      300_000,
    );
  }
});

describe("Ctrl-C during a wait", () => {
  it("one SIGINT ends the provider's wait for Running and the notebook it made is recorded (nothing orphaned)", async () => {
    // The notebook never becomes Running within the test, and the program would wait an hour for it.
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const project = cliProject(
      "ctrl-c",
      emulator,
      `const aicp = require("pulumi-aicp");
new aicp.Notebook("patient", { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter",
  replicaSpecs: { specs: "sku-1", customCpu: 2 }, readyTimeoutSeconds: 3600 });`,
    );
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    let passed = false;
    let orphans = 0;
    try {
      expect((await project.run("pulumi", "stack", "init", "ci", "--non-interactive")).status).toBe(0);
      const { child, done } = project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      // Once the provider waits for Running (it lists after the create was answered), press Ctrl-C once.
      await eventually(() => providerWaiting(emulator), "the provider to wait for the notebook to be Running", 60_000);
      child.kill("SIGINT");
      const interrupted = await done;
      expect(interrupted.status, interrupted.output).not.toBe(0);
      expect(interrupted.output).toContain("cancelled (Ctrl-C)");
      const exported = await project.run("pulumi", "stack", "export", "--stack", "ci");
      const resources = (JSON.parse(exported.output.slice(exported.output.indexOf("{"))).deployment.resources ?? []) as Array<{ type: string; id?: string }>;
      const recorded = resources.filter((r) => r.type === "pulumi-nodejs:dynamic/aicp:Notebook").map((r) => r.id);
      expect(recorded).toEqual([live()[0]!.uuid]);
      const destroy = await project.run("pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci");
      expect(destroy.status, destroy.output).toBe(0);
      orphans = live().length;
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "interruption", name: "one Ctrl-C during a wait for Running", passed, duplicates: 0, orphans, leaks: 0 });
      project.dispose();
      await emulator.close();
    }
  }, 180_000);
});
