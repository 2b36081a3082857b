import { defineConfig } from "vitest/config";

/**
 * The fast suite as one project, for mutation testing (stryker.config.mjs):
 * the tests of the `unit` and `contract` projects of vitest.config.mts (unit,
 * contract, emulator), which need nothing but Node. No engine tests: they pack
 * the package and drive the pulumi CLI, minutes per mutant.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    include: ["test/unit/**/*.test.ts", "test/contract/**/*.test.ts", "test/emulator/**/*.test.ts"],
    setupFiles: ["test/support/isolated-journal.ts"],
    globalSetup: ["test/support/reliability-summary.ts"],
  },
});
