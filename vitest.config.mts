import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end files drive the real pulumi CLI; they set their own, longer timeouts.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/support/package-install.ts", "test/support/reliability-summary.ts"],
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/vitest.json" }]] : ["default"],
  },
});
