/**
 * A pipeline's runners: each command on a runner of its own (its own checkout and PULUMI_HOME, so its own
 * create journal), the stack's state in one backend they share, as teams keep it: an S3 bucket (moto's
 * server) and a PostgreSQL database (Debian's server), both real servers (test/support/shared-backends.ts).
 * `pulumi up` is killed (kill -9) on runner A while the notebook it created is starting; runner B runs
 * `pulumi cancel` and `pulumi up`, then `pulumi destroy`: one create in all, the notebook recorded, nothing
 * left. On the TypeScript front with nothing configured; on the plugin with the stack's
 * `pulumi:autonaming` pattern (docs/resources.md, Notebook), which that page names for it. docs/identity.md,
 * "What holds across runners".
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlCpuNotebook, yamlPluginProject } from "../support/plugin-project";
import { eventually } from "../support/poll";
import { descendantsOf, killAll } from "../support/processes";
import { recordCase } from "../support/reliability";
import { startPostgres, startS3, type SharedBackend } from "../support/shared-backends";

const typescriptProgram = `
const aicp = require("pulumi-aicp");
new aicp.Notebook("research", {
  chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 },
});
`;
const yamlProgram = `
resources:${yamlCpuNotebook("research")}
`;

describe.each([
  ["S3", startS3],
  ["PostgreSQL", startPostgres],
] as const)("a pipeline whose runners share the state in %s", (backendName, start) => {
  let backend: SharedBackend;

  beforeAll(async () => {
    backend = await start();
  }, 300_000);
  afterAll(() => {
    backend?.stop();
  });

  /** `pulumi up` on `runner`, killed with its plugins once the platform holds a notebook. */
  async function upKilledOnceCreated(runner: CliProject, live: () => unknown[]): Promise<void> {
    const { child, done } = runner.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
    await eventually(() => live().length === 1, "the create to reach the platform", 120_000);
    const family = descendantsOf(child.pid!);
    child.kill("SIGKILL");
    await done;
    killAll(family);
  }

  // The plugin without the pattern: runner B's up is refused, naming the pattern; set there, the next up adopts.
  const fronts = [
    ["TypeScript", "nothing configured"],
    ["plugin", "the pulumi:autonaming pattern"],
    ["plugin", "the pattern set only after a refusal that names it"],
  ] as const;
  for (const [front, setting] of fronts) {
    const patternFirst = setting === "the pulumi:autonaming pattern";
    it(`${front}: up killed on runner A, then cancel, up and destroy on runner B (${setting}): one create, nothing left`, async () => {
      const emulator: Emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
      const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && !n.auto_delete_time);
      const creates = () => emulator.requests().filter((r) => r.operation === "createNotebook").length;
      const shared = await backend.fresh();
      const runners: CliProject[] = [];
      /** A runner: a fresh checkout of the same project with its own PULUMI_HOME; the stack's settings file comes from the repository. */
      const runner = async (): Promise<CliProject> => {
        const project =
          front === "TypeScript"
            ? cliProject("shared-backend", emulator, typescriptProgram, shared)
            : (await yamlPluginProject("shared-backend", emulator, yamlProgram, repositoryPlugin, { ...shared }, { initStack: runners.length === 0 })).project;
        runners.push(project);
        return project;
      };
      let passed = false;
      let duplicates = 0;
      let orphans = 0;
      try {
        const a = await runner();
        if (front === "TypeScript") expect((await a.run("pulumi", "stack", "init", "ci", "--non-interactive")).status).toBe(0);
        const setPattern = async (r: CliProject) => {
          const set = await r.run("pulumi", "config", "set", "--path", "pulumi:autonaming.providers.aicp.pattern", "${name}", "--stack", "ci");
          expect(set.status, set.output).toBe(0);
        };
        if (patternFirst) await setPattern(a);
        await upKilledOnceCreated(a, live);
        const b = await runner();
        copyFileSync(join(a.dir, "Pulumi.ci.yaml"), join(b.dir, "Pulumi.ci.yaml"));
        const pulumiOnB = (...args: string[]) => b.run("pulumi", ...args, "--yes", "--non-interactive", "--stack", "ci");
        expect((await pulumiOnB("cancel")).status).toBe(0);
        emulator.clock.advance(3_600_000);
        if (front === "plugin" && !patternFirst) {
          const refused = await pulumiOnB("up");
          expect(refused.status, refused.output).not.toBe(0);
          expect(refused.output).toContain("AICP_CONFLICT");
          expect(refused.output).toContain("pulumi config set --path pulumi:autonaming.providers.aicp.pattern");
          await setPattern(b);
        }
        const up = await pulumiOnB("up");
        console.log(
          `shared ${backendName} backend, ${front}, ${setting}: ${creates()} create request(s), ` +
            `${live().length} notebook(s) after runner B's up (exit ${up.status})`,
        );
        expect(up.status, up.output).toBe(0);
        duplicates = Math.max(0, live().length - 1);
        expect(creates()).toBe(1);
        expect(live()).toHaveLength(1);
        const destroy = await pulumiOnB("destroy");
        expect(destroy.status, destroy.output).toBe(0);
        orphans = live().length;
        expect(orphans).toBe(0);
        passed = true;
      } finally {
        recordCase({
          suite: "shared state",
          name: `${front}: kill -9 on runner A, up on runner B (${backendName}; ${setting})`,
          passed,
          duplicates,
          orphans,
          leaks: 0,
        });
        for (const r of runners) r.dispose();
        await emulator.close();
      }
    }, 300_000);
  }
});
