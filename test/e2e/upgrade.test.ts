/**
 * Upgrading the package or the plugin changes nothing: stacks made by the
 * version before the Notebook field-table refactor (commit d0c1869, recorded
 * by scripts/upgrade-fixture.sh in test/fixtures/upgrade/d0c1869/) preview
 * with no change under the current build. For each front, the fixture's
 * `pulumi stack export` is imported into a fresh stack of the same project and
 * stack name (the auto-names and marks derive from them), the emulator starts
 * from a copy of the state that version left, and `pulumi preview
 * --expect-no-changes --diff --json` runs the same program with the current
 * build (the package as the engine project installs it; the plugin from the
 * repository's bin/): the engine must count every recorded resource `same`
 * and plan no other step, and the emulator must see no write.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliProject } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

const fixture = join(__dirname, "../fixtures/upgrade/d0c1869");

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
function recordedResources(front: string): number {
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
async function importAndPreview(front: string, pulumi: (...args: string[]) => Promise<{ status: number | null; output: string }>): Promise<Preview> {
  const imported = await pulumi("stack", "import", "--file", join(fixture, front, "stack.json"));
  expect(imported.status, imported.output).toBe(0);
  const { status, output } = await pulumi("preview", "--expect-no-changes", "--diff", "--json");
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

/**
 * Asserts the preview changed nothing: no step other than `same` (a failure names the resource, the operation and the
 * inputs it changes), each of the `count` recorded resources counted `same`, and success. Soft: both fronts report.
 */
function expectNoChange(front: string, preview: Preview, count: number): void {
  expect
    .soft(
      preview.steps.filter((s) => s.op !== "same"),
      `${front}: steps other than same`,
    )
    .toEqual([]);
  expect.soft(preview.resourceChanges, `${front}: the engine's summary`).toEqual({ same: count });
  expect.soft(preview.status, `${front}: pulumi preview --expect-no-changes exits 0; the end of what it printed:\n${preview.output.slice(-1500)}`).toBe(0);
}

describe("stacks made by d0c1869 (before the Notebook field table) preview with no change", () => {
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

  it("the package's dynamic resources (TypeScript) and the provider plugin (YAML), both previewed at once", async () => {
    // Project and stack names as the fixture's: aicp-upgrade/ci (cliStack names it aicp-<name>) and aicp-yaml/ci.
    const typescript = async () => {
      const { project, pulumi } = await cliStack("upgrade", emulator, readFileSync(join(fixture, "typescript/index.js"), "utf8"));
      projects.push(project);
      return importAndPreview("typescript", pulumi);
    };
    const yaml = async () => {
      const program = readFileSync(join(fixture, "yaml/Pulumi.yaml"), "utf8").replace(/^name: aicp-yaml\nruntime: yaml\n/m, "");
      const { project, pulumi } = await yamlPluginProject("upgrade-yaml", emulator, program, repositoryPlugin);
      projects.push(project);
      return importAndPreview("yaml", pulumi);
    };
    const [fromTypescript, fromYaml] = await Promise.all([typescript(), yaml()]);
    expectNoChange("typescript", fromTypescript, recordedResources("typescript"));
    expectNoChange("yaml", fromYaml, recordedResources("yaml"));
    // Neither the imports nor the previews wrote: the only requests the emulator had since it started.
    expect(
      emulator
        .requests()
        .filter((r) => r.operation !== "admin" && r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  }, 120_000);
});
