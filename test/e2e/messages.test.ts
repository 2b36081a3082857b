/**
 * What a user reads where only the CLI shows it: a failing
 * function in a TypeScript program. test/contract/messages.test.ts runs the
 * rest in-process (output types, one-line errors with their next step,
 * previews without unknowns or time-spelling changes); the error text of a
 * failing function is checked there too, through the plugin's Invoke.
 *
 * What only the engine shows: how the Node.js SDK's program runtime and the
 * CLI print the error an Output's apply rejects with: once, under
 * Diagnostics, with no "Unhandled exception" and no stack trace, and no more
 * often than Pulumi's own RunError raised the same way.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliStack } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";

/** How many times the CLI prints `line` under Diagnostics. */
const printed = (output: string, line: string) => output.slice(output.indexOf("Diagnostics:")).split(line).length - 1;

describe("what a user reads, through the CLI", () => {
  it("a failing function (Output form) prints one line with its code, no stack trace, no more often than Pulumi's own RunError", async () => {
    const emulator = await startTestEmulator();
    const c = await cliStack(
      "function-error-output",
      emulator,
      `const aicp = require("pulumi-aicp");\nexports.servers = aicp.getNotebookServersOutput({ uuid: "" });\n`,
    );
    try {
      const up = await c.pulumi("up");
      expect(up.status, up.output).not.toBe(0);
      const line = "error: AICP_VALIDATION: invalid getNotebookServers arguments; nothing was sent to the platform: uuid: must not be empty\n";
      expect(printed(up.output, line), up.output).toBeGreaterThanOrEqual(1);
      expect(up.output).not.toContain("Unhandled exception");
      expect(up.output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
      // The baseline: the SDK's own RunError, exported the same way, as the engine prints it (twice, with this CLI).
      writeFileSync(
        join(c.project.dir, "index.js"),
        `const pulumi = require("@pulumi/pulumi");\nexports.servers = pulumi.output(1).apply(() => { throw new pulumi.RunError("baseline"); });\n`,
      );
      const baseline = await c.pulumi("up");
      expect(printed(up.output, line)).toBeLessThanOrEqual(printed(baseline.output, "error: baseline\n"));
    } finally {
      c.project.dispose();
      await emulator.close();
    }
  }, 120_000);
});
