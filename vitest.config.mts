import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Six projects: `unit` (pure functions, seconds), `declarations` (the compiler's
 * view of the SDK and generated files), `contract` (the client and the lifecycles
 * against an in-process emulator), `matrix` (the same, the in-process matrices), `conformance` (the emulator
 * against the platform's published Python clients and documents), and `engine` (the real pulumi
 * CLI and engine; only it packs and installs the package, see
 * test/support/package-install.ts). `vitest run --project unit --project
 * contract` runs the first two without packing.
 */
/**
 * Unit and contract files spend most of their time waiting on an in-process
 * emulator's answers, not computing: four at once on two cores keeps the CPU
 * busy. They run first, as one group; the engine files (each drives pulumi
 * and node processes of its own) run after, two at a time.
 */
/**
 * The in-process matrices (faults, truth and hostile answers, misbehaving platforms and lists that lag
 * behind writes, every dialect, lost creates): each runs the lifecycles many times over, half of `npm run test:fast`'s time, so they are a
 * project of their own that `npm test` runs and test:fast (unit and contract, under a minute) leaves out.
 */
const matrixFiles = [
  "test/contract/dialect-lifecycles.test.ts",
  "test/contract/fault-matrix.test.ts",
  "test/contract/truth.test.ts",
  "test/contract/truth-hostile.test.ts",
  "test/contract/plugin-truth.test.ts",
  "test/contract/misbehaving.test.ts",
  "test/contract/misbehaving-names.test.ts",
  "test/contract/lost-creates.test.ts",
  "test/contract/update-evidence.test.ts",
];

/**
 * What the TypeScript compiler checks: the SDK's declarations against the kinds' and functions'
 * descriptions, and the generated files against their sources. Each builds a compiler program (seconds of
 * CPU), so they are a project of their own that `npm test` runs and test:fast leaves out.
 */
const declarationFiles = ["test/unit/declarations.test.ts", "test/unit/kind-descriptions.test.ts", "test/unit/sdk-types.test.ts"];

/**
 * The guardrails' tests: @pulumi/policy's server keeps the configuration an analyzer was last given in its
 * module, so these run each in a module graph of its own, not in the unit project's shared one.
 */
const policyFiles = ["test/unit/policy-analyzer.test.ts", "test/unit/policy-rules.test.ts", "test/unit/policy-runtime.test.ts"];

const waitingFiles = { maxWorkers: 4, sequence: { groupOrder: 0 }, setupFiles: ["test/support/isolated-journal.ts"] };

/**
 * vitest's sequencer, with the engine files that take longest started first:
 * in a fresh clone vitest has no durations and starts larger files first, so
 * a short file of long waits (the demo) could start last and run alone at the
 * end while the other worker idles. The list comes from the fresh-clone CI's
 * report (test-results/vitest.json, 2 workers); a file not listed keeps
 * vitest's order after them.
 */
const longest = [
  "reliability/misbehaving",
  "e2e/demo",
  "reliability/plugin",
  "e2e/plugin-automation",
  "reliability/interruption",
  "e2e/adopt",
  "e2e/examples",
  "e2e/readme-facts",
  "e2e/plugin-move",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = longest.findIndex((name) => spec.moduleId.endsWith(`/test/${name}.test.ts`));
      return at < 0 ? longest.length : at;
    };
    // Projects keep their place (vitest runs them in groups); only the order within each changes.
    const block = (spec: TestSpecification) => base.findIndex((other) => other.project.name === spec.project.name);
    return base
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => block(a.spec) - block(b.spec) || rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    // End-to-end files drive the real pulumi CLI; they set their own, longer timeouts.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    sequence: { sequencer: LongestFirst },
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/vitest.json" }]] : ["default"],
    projects: [
      // One module graph per worker, not per file: importing the provider, the client and the emulator again for
      // each of the unit files was a third of test:fast's time. A unit file sets up what it relies on.
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], exclude: [...declarationFiles, ...policyFiles], ...waitingFiles, isolate: false },
      },
      { extends: true, test: { name: "policy", include: policyFiles, ...waitingFiles } },
      { extends: true, test: { name: "declarations", include: declarationFiles, ...waitingFiles } },
      {
        extends: true,
        // The in-process rows of the reliability table (test/support/reliability.ts) are written here too.
        test: {
          name: "contract",
          include: ["test/contract/**/*.test.ts", "test/emulator/**/*.test.ts"],
          exclude: matrixFiles,
          globalSetup: ["test/support/reliability-summary.ts"],
          ...waitingFiles,
        },
      },
      {
        extends: true,
        // The in-process matrices: contract tests too, run by npm test beside the others, left out of test:fast.
        test: { name: "matrix", include: matrixFiles, globalSetup: ["test/support/reliability-summary.ts"], ...waitingFiles },
      },
      { extends: true, test: { name: "conformance", include: ["test/conformance/**/*.test.ts"], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: "engine",
          sequence: { groupOrder: 2 },
          // Two files at once: an engine file mostly waits on pulumi's and the emulator's processes, not the CPU.
          maxWorkers: 2,
          include: ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts"],
          globalSetup: ["test/support/package-install.ts", "test/support/reliability-summary.ts"],
        },
      },
    ],
  },
});
