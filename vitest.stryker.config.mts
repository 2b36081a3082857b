import { defineConfig } from "vitest/config";

/**
 * The fast suite as one project, for mutation testing (stryker.config.mjs):
 * the tests of the `unit` and `contract` projects of vitest.config.mts (unit,
 * contract, emulator), which need nothing but Node. No engine tests: they pack
 * the package and drive the pulumi CLI, minutes per mutant.
 *
 * AICP_MUTATION_TESTS=unit runs the unit tests alone: a run in minutes whose
 * score is a lower bound of the fast suite's (a mutant the unit tests detect,
 * the fast suite detects too).
 */
const unitOnly = process.env.AICP_MUTATION_TESTS === "unit";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    include: unitOnly ? ["test/unit/**/*.test.ts"] : ["test/unit/**/*.test.ts", "test/contract/**/*.test.ts", "test/emulator/**/*.test.ts"],
    setupFiles: ["test/support/isolated-journal.ts"],
    globalSetup: ["test/support/reliability-summary.ts"],
  },
});
