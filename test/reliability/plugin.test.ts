/**
 * The provider plugin under interruption (a YAML program, the real engine):
 * one Ctrl-C during a wait for Running records the notebook it made, a kill
 * -9 while the create is in flight sends no second create, and the README's
 * pin for plugin upgrades ("Auto-names"): a program that names the plugin's
 * version (every generated SDK does) gets a new default provider,
 * `default_<version>`, with a new stack id, so a create killed before the
 * engine recorded it and resumed after an upgrade finds its notebook only
 * where `aicp:stackMark` pins the id. The upgrade case installs both versions
 * from their archives; the other two run the plugin from the repository's
 * bin/ (the same build, not installed).
 * Duplicates and orphans are counted into the reliability table like the
 * dynamic provider's cases. A create whose answer is lost, and the provider's
 * side of the kill -9 cases, run in-process (test/contract/lost-creates.test.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliProject } from "../support/cli-project";
import { emulatorCredentials, providerWaiting, requestsInFlight, startTestEmulator } from "../support/emulator";
import { packPlugin, pluginVersion, repositoryPlugin, yamlCpuNotebook, yamlPluginProject } from "../support/plugin-project";
import { eventually } from "../support/poll";
import { descendantsOf, killAll } from "../support/processes";
import { recordCase } from "../support/reliability";

/** One notebook; `version`, where given, names the plugin version as a generated SDK does (respectSchemaVersion). */
const versioned = (version?: string) => `
resources:${yamlCpuNotebook("patient")}
      readyTimeoutSeconds: 3600${version ? `\n    options:\n      version: ${version}` : ""}
outputs:
  uuid: \${patient.uuid}
`;
const program = versioned();

/** The notebook ids the stack records. */
function recorded(exported: string): string[] {
  const resources =
    (JSON.parse(exported.slice(exported.indexOf("{"))) as { deployment: { resources?: Array<{ type: string; id?: string }> } }).deployment.resources ?? [];
  return resources.filter((r) => r.type === "aicp:index:Notebook").map((r) => r.id!);
}

/** The plugin archive again, as the next patch release: the same code under version `next`. */
function nextRelease(archive: string, next: string): { archive: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "aicp-plugin-next-"));
  const unpacked = join(dir, "plugin");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
  for (const file of ["package.json", "schema.json"]) {
    const json = JSON.parse(readFileSync(join(unpacked, file), "utf8")) as { version: string };
    writeFileSync(join(unpacked, file), JSON.stringify({ ...json, version: next }, null, 2));
  }
  const out = join(dir, archive.split("/").pop()!.replace(`-v${pluginVersion}-`, `-v${next}-`));
  execFileSync("tar", ["-czf", out, "-C", unpacked, "."]);
  return { archive: out, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `pulumi up`, killed with its plugin (kill -9) once `created` holds: the engine records nothing of that create. */
async function upKilledOnceCreated(project: CliProject, created: () => boolean): Promise<void> {
  const { child, done } = project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
  await eventually(created, "the create to reach the platform", 120_000);
  const family = descendantsOf(child.pid!);
  child.kill("SIGKILL");
  await done;
  killAll(family);
}

describe("the provider plugin under faults and interruption", () => {
  const next = pluginVersion.replace(/\d+$/, (patch) => String(Number(patch) + 1));
  let packed: ReturnType<typeof packPlugin>;
  let upgraded: ReturnType<typeof nextRelease> | undefined;
  beforeAll(() => {
    packed = packPlugin();
  }, 300_000);
  afterAll(() => {
    packed?.dispose();
    upgraded?.dispose();
  });

  // Needs the engine: a real SIGINT to pulumi, which calls the plugin's Cancel and waits for the operations in
  // flight, and what the engine then records of a create the wait ended.
  it("one SIGINT ends the plugin's wait for Running and the notebook it made is recorded; the next up sends no create", async () => {
    // Running only when the test moves the emulator's clock: the program would wait an hour.
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    const stack = await yamlPluginProject("plugin-ctrl-c", emulator, program, repositoryPlugin);
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

  // Needs the engine: a real kill -9 of pulumi and the plugin process, and what the engine records (nothing) after it.
  it("kill -9 while the create is in flight, on a platform that lists new notebooks a minute late: the next up sends no second create", async () => {
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 200 });
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && !n.auto_delete_time);
    const creates = () => emulator.requests().filter((r) => r.operation === "createNotebook").length;
    // The earlier create is watched for 3 s, not 30 (provider/timing.ts): the case is what the next up sends.
    const stack = await yamlPluginProject("plugin-lagging", emulator, program, repositoryPlugin, { AICP_CREATE_WATCH_MS: "3000" });
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      emulator.misbehave({ listDelayMs: 60_000 });
      emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 3000, count: 1 });
      const inFlight = () => requestsInFlight(emulator);
      const { child, done } = stack.project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      // The lookups before the create answer at once; a request still open after them is the create.
      await eventually(
        async () => emulator.requests().some((r) => r.operation === "listNotebooks") && (await inFlight()) > 0,
        "the create to be in flight",
        120_000,
      );
      const family = descendantsOf(child.pid!);
      child.kill("SIGKILL");
      await done;
      killAll(family);
      await stack.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
      await eventually(() => live().length === 1, "the platform to finish the create", 30_000);
      const again = await stack.pulumi("up");
      console.log(
        `plugin, kill -9 mid-create, list a minute late: ${creates()} create request(s), ${live().length} notebook(s) after the next up (exit ${again.status})`,
      );
      duplicates = Math.max(0, live().length - 1);
      expect(creates()).toBe(1);
      expect(again.output).toContain("earlier run sent the create");
      emulator.clock.advance(60_000);
      const up = await stack.pulumi("up");
      expect(up.status, up.output).toBe(0);
      expect(creates()).toBe(1);
      expect(recorded((await stack.pulumi("stack", "export")).output)).toHaveLength(1);
      // A list that lags a minute would keep a deleted notebook listed for that minute: destroy waits it out (not this case's point).
      emulator.clearMisbehaviour();
      expect((await stack.pulumi("destroy")).status).toBe(0);
      orphans = live().length;
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "plugin", name: "plugin: kill -9 mid-create, list a minute late", passed, duplicates, orphans, leaks: 0 });
      stack.project.dispose();
      await emulator.close();
    }
  }, 300_000);

  // Needs the engine: a real kill -9, the engine's autonaming setting reaching the plugin's Check (and making every
  // replacement delete first), and the next up on a fresh runner (its own create journal) after `pulumi cancel`.
  it("kill -9 mid-create, then up on a fresh runner: with the README's autonaming pattern, the up adopts the notebook (one create in all)", async () => {
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && !n.auto_delete_time);
    const creates = () => emulator.requests().filter((r) => r.operation === "createNotebook").length;
    const runner = { AICP_CREATE_JOURNAL_DIR: "" };
    const stack = await yamlPluginProject("plugin-fresh-runner", emulator, program, repositoryPlugin, runner);
    const freshRunner = () => (runner.AICP_CREATE_JOURNAL_DIR = mkdtempSync(join(stack.project.home, "runner-")));
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      freshRunner();
      const set = await stack.pulumi("config", "set", "--path", "pulumi:autonaming.providers.aicp.pattern", "${name}");
      expect(set.status, set.output).toBe(0);
      await upKilledOnceCreated(stack.project, () => live().length === 1);
      freshRunner();
      await stack.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
      emulator.clock.advance(3_600_000);
      const up = await stack.pulumi("up");
      console.log(`plugin, kill -9 mid-create, up on a fresh runner (autonaming pattern): ${creates()} create request(s), ${live().length} notebook(s)`);
      expect(up.status, up.output).toBe(0);
      duplicates = Math.max(0, live().length - 1);
      expect(creates()).toBe(1);
      expect(recorded((await stack.pulumi("stack", "export")).output)).toEqual(live().map((n) => n.uuid));
      freshRunner();
      expect((await stack.pulumi("destroy")).status).toBe(0);
      orphans = live().length;
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "plugin", name: "plugin: kill -9 mid-create, up on a fresh runner (autonaming pattern)", passed, duplicates, orphans, leaks: 0 });
      stack.project.dispose();
      await emulator.close();
    }
  }, 300_000);

  // Needs the engine: a real kill -9, a second plugin version installed from its archive, and the default
  // provider the engine picks for it (default_<version>, a new provider instance with a new stack id).
  it("kill -9 mid-create, then an upgrade: with aicp:stackMark pinned, the next up finds the notebook (one create in all)", async () => {
    // The create is answered, then the plugin waits an hour for Running: pulumi is killed in that wait.
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 3_600_000 });
    const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && n.status !== "Deleted");
    const stack = await yamlPluginProject("plugin-upgrade", emulator, versioned(pluginVersion), packed.archive);
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      expect((await stack.pulumi("config", "set", "aicp:stackMark", "0123456789abcdef0123456789abcdef")).status).toBe(0);
      await upKilledOnceCreated(stack.project, () => live().length === 1);
      await stack.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
      // The engine never recorded the notebook: only a pending create, which a user clears.
      const install = await stack.project.run(
        "pulumi",
        "plugin",
        "install",
        "resource",
        "aicp",
        next,
        "--file",
        (upgraded ??= nextRelease(packed.archive, next)).archive,
      );
      expect(install.status, install.output).toBe(0);
      stack.program(versioned(next));
      const cleared = await stack.pulumi("refresh", "--clear-pending-creates");
      expect(cleared.status, cleared.output).toBe(0);
      emulator.clock.advance(3_600_000);
      const up = await stack.pulumi("up");
      expect(up.status, up.output).toBe(0);
      const exported = (await stack.pulumi("stack", "export")).output;
      // The upgrade took effect: the notebook is now under the new default provider.
      expect(exported).toContain(`pulumi:providers:aicp::default_${next.replace(/\./g, "_")}`);
      duplicates = Math.max(0, live().length - 1);
      expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(1);
      expect(live()).toHaveLength(1);
      expect((await stack.pulumi("destroy")).status).toBe(0);
      orphans = live().length;
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "plugin", name: "plugin: kill -9 mid-create, then an upgrade (stackMark pinned)", passed, duplicates, orphans, leaks: 0 });
      stack.project.dispose();
      await emulator.close();
    }
  }, 300_000);
});
