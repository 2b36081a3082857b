/** The quickstart example, copied into a program folder as a user would, through the real engine. */
import { copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { changeCount, createTestStack, recording, type TestStack } from "../support/pulumi";

describe("examples/quickstart", () => {
  let emulator: Emulator;
  let target: TestStack;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    target = await createTestStack({
      name: "quickstart",
      config: emulatorConfig(emulator),
      // Loads the example's index.js from the program folder, so its requires resolve as in a user's project.
      program: () => {
        const entry = join(target.workDir, "index.js");
        const load = createRequire(entry);
        delete load.cache[entry];
        return load(entry);
      },
    });
    copyFileSync(resolve(__dirname, "../../examples/quickstart/index.js"), join(target.workDir, "index.js"));
  }, 120_000);

  afterAll(async () => {
    await target?.dispose();
    await emulator?.close();
  });

  it("creates a group and a running GPU notebook, then shows no changes on a second up", async () => {
    await target.stack.up(recording(target));
    const outputs = await target.stack.outputs();
    const notebooks = emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    expect(notebooks).toHaveLength(1);
    expect(outputs.notebookId!.value).toBe(notebooks[0]!.uuid);
    expect(outputs.notebookStatus!.value).toBe("Running");
    expect(String(outputs.template!.value)).toMatch(/\(1 x /);
    const second = await target.stack.up(recording(target));
    expect(changeCount(second.summary.resourceChanges)).toBe(0);
    await target.stack.destroy(recording(target));
    expect(emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId)).toEqual([]);
  }, 240_000);
});
