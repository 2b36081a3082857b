/**
 * Upgrading the package or the plugin replaces and updates nothing: stacks
 * made by earlier landed versions (recorded by scripts/upgrade-fixture.sh in
 * test/fixtures/upgrade/<commit>/: 6e24962, the first, with the TypeScript
 * front only; 18ca163; d0c1869, the last before the Notebook field table)
 * preview under the current build with every recorded resource `same` and
 * no other step than the additions CHANGELOG.md names (by resource type, in
 * its "State" notes): a change of what the state holds that the CHANGELOG
 * does not name fails here. For each front, the fixture's `pulumi stack
 * export` is imported into a fresh stack of the same project and stack name
 * (the auto-names and marks derive from them), the emulator starts from a
 * copy of the state that version left, and `pulumi preview --diff --json`
 * runs the same program with the current build (the package as the engine
 * project installs it; the plugin from the repository's bin/). Then `up` and
 * `refresh` converge: a last `pulumi preview --expect-no-changes` passes. The
 * emulator sees no write throughout.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliProject } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

const fixtures = join(__dirname, "../fixtures/upgrade");
/** The "State" notes of every version in CHANGELOG.md: what they name is what an upgraded stack may gain. */
const stateNotes = readFileSync(join(__dirname, "../../CHANGELOG.md"), "utf8")
  .split(/^(?=#{2,3} )/m)
  .filter((section) => section.startsWith("### State"))
  .join("\n");

type Pulumi = (...args: string[]) => Promise<{ status: number | null; output: string }>;

/** A step of `pulumi preview --json`: the engine lists those that are not `same`, and the stack's. */
interface Step {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/** What a front's preview showed: its exit status and output, each listed step's operation and changed inputs, the engine's summary. */
interface Preview {
  status: number | null;
  output: string;
  /** Each listed step: its URN, the operation (`same`, `create`, `update`, `replace`, `delete`, …) and the inputs that differ from the recorded ones. */
  steps: Array<{ urn: string; op: string; changed: string[] }>;
  /** The engine's count of resources by operation; providers are not counted. */
  resourceChanges: Record<string, number>;
}

/** How many resources, providers aside (the engine's summary leaves them out), a front's recorded stack holds. */
function recordedResources(fixture: string, front: string): number {
  const exported = JSON.parse(readFileSync(join(fixture, front, "stack.json"), "utf8")) as { deployment: { resources: Array<{ type: string }> } };
  return exported.deployment.resources.filter((r) => !r.type.startsWith("pulumi:providers:")).length;
}

/** The names of the inputs a step changes (secret values compare as the engine shows them, `[secret]`). */
function changedInputs(step: Step): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}

/**
 * Imports the front's recorded stack, then previews the program with `--json` (with `--diff`) for the engine's steps
 * and summary.
 */
async function importAndPreview(fixture: string, front: string, pulumi: Pulumi): Promise<Preview> {
  const imported = await pulumi("stack", "import", "--file", join(fixture, front, "stack.json"));
  expect(imported.status, imported.output).toBe(0);
  const { status, output } = await pulumi("preview", "--diff", "--json");
  // The JSON document is the output's first `{` to its last `}`: the language host may print warnings around it.
  let parsed: { steps?: Step[]; changeSummary?: Record<string, number> };
  try {
    parsed = JSON.parse(output.slice(output.indexOf("{"), output.lastIndexOf("}") + 1)) as typeof parsed;
  } catch {
    throw new Error(`pulumi preview --json printed no JSON document:\n${output}`);
  }
  const steps = (parsed.steps ?? []).map((step) => ({ urn: step.urn, op: step.op, changed: changedInputs(step) }));
  return { status, output, steps, resourceChanges: parsed.changeSummary ?? {} };
}

/** The resource type of a URN (`urn:pulumi:stack::project::type::name`, a parent's type before `$`). */
const typeOf = (urn: string) => urn.split("::")[2]!.split("$").pop()!;

/**
 * Asserts the preview replaced and updated nothing: each of the `count` recorded resources counted `same`, and no
 * step other than `same` but the creation of a resource whose type CHANGELOG.md's State notes name (a failure names the resource,
 * the operation and the inputs it changes). Soft: every front reports.
 */
function expectOnlyNamedAdditions(front: string, preview: Preview, count: number): void {
  const added = preview.steps.filter((s) => s.op === "create" && stateNotes.includes(`\`${typeOf(s.urn)}\``));
  expect
    .soft(
      preview.steps.filter((s) => s.op !== "same" && !added.includes(s)),
      `${front}: steps other than same and the additions CHANGELOG.md names`,
    )
    .toEqual([]);
  expect.soft(preview.resourceChanges, `${front}: the engine's summary`).toEqual(added.length > 0 ? { same: count, create: added.length } : { same: count });
  expect.soft(preview.status, `${front}: pulumi preview exits 0; the end of what it printed:\n${preview.output.slice(-1500)}`).toBe(0);
}

/** `up`, then `refresh`, then a preview that must show no change: the upgraded stack converges. */
async function expectConverges(front: string, pulumi: Pulumi): Promise<void> {
  for (const args of [
    ["up", "--skip-preview"],
    ["refresh", "--skip-preview"],
    ["preview", "--expect-no-changes", "--diff"],
  ]) {
    const run = await pulumi(...args);
    expect.soft(run.status, `${front}: pulumi ${args.join(" ")}; the end of what it printed:\n${run.output.slice(-1500)}`).toBe(0);
  }
}

describe.each(readdirSync(fixtures).sort())("stacks made by %s", (commit) => {
  const fixture = join(fixtures, commit);
  let emulator: Emulator;
  let stateDir: string;
  const projects: CliProject[] = [];

  beforeAll(async () => {
    // A copy: the emulator rewrites its state file after every change.
    stateDir = mkdtempSync(join(tmpdir(), "aicp-upgrade-"));
    copyFileSync(join(fixture, "emulator-state.json"), join(stateDir, "emulator.json"));
    emulator = await startTestEmulator({ stateFile: join(stateDir, "emulator.json") });
  });
  afterAll(async () => {
    for (const project of projects) project.dispose();
    await emulator?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("preview with no update or replacement under the current build, only the additions CHANGELOG.md names; up and refresh converge", async () => {
    // Project and stack names as the fixture's: aicp-upgrade/ci (cliStack names it aicp-<name>) and aicp-yaml/ci.
    const typescript = async () => {
      const { project, pulumi } = await cliStack("upgrade", emulator, readFileSync(join(fixture, "typescript/index.js"), "utf8"));
      projects.push(project);
      expectOnlyNamedAdditions("typescript", await importAndPreview(fixture, "typescript", pulumi), recordedResources(fixture, "typescript"));
      await expectConverges("typescript", pulumi);
    };
    const yaml = async () => {
      // The first versions had no provider plugin.
      if (!existsSync(join(fixture, "yaml"))) return;
      const program = readFileSync(join(fixture, "yaml/Pulumi.yaml"), "utf8").replace(/^name: aicp-yaml\nruntime: yaml\n/m, "");
      const { project, pulumi } = await yamlPluginProject("upgrade-yaml", emulator, program, repositoryPlugin);
      projects.push(project);
      expectOnlyNamedAdditions("yaml", await importAndPreview(fixture, "yaml", pulumi), recordedResources(fixture, "yaml"));
      await expectConverges("yaml", pulumi);
    };
    await Promise.all([typescript(), yaml()]);
    // Neither the imports, the previews, the ups nor the refreshes wrote: the only requests the emulator had since it started.
    expect(
      emulator
        .requests()
        .filter((r) => r.operation !== "admin" && r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  }, 240_000);
});
