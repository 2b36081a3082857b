import { defineConfig } from "vitest/config";

/**
 * Four projects: `unit` (pure functions, seconds), `contract` (the client and
 * the lifecycles against an in-process emulator), `conformance` (the emulator
 * against the platform's published Python clients and documents), and `engine` (the real pulumi
 * CLI and engine; only it packs and installs the package, see
 * test/support/package-install.ts). `vitest run --project unit --project
 * contract` runs the first two without packing.
 */
export default defineConfig({
  test: {
    // End-to-end files drive the real pulumi CLI; they set their own, longer timeouts.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/vitest.json" }]] : ["default"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "contract", include: ["test/contract/**/*.test.ts", "test/emulator/**/*.test.ts"] } },
      { extends: true, test: { name: "conformance", include: ["test/conformance/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "engine",
          include: ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts"],
          globalSetup: ["test/support/package-install.ts", "test/support/reliability-summary.ts"],
        },
      },
    ],
  },
});
