/**
 * What only the real engine shows of the plugin's warnings: the plugin,
 * started by the engine with the engine's address, sends them over the
 * engine's Log service (provider/engine-log.ts), and the CLI prints them as
 * warnings; and how the engine prints a check failure (its own rendering of
 * a property's value, which the plugin's failures avoid). In-process (test/contract/plugin-truth.test.ts) the same warning
 * is read where a provider without an engine writes it. The plugin runs from
 * the repository's bin/ (how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject, yamlTakeOver } from "../support/plugin-project";

describe("the plugin's warnings through the engine", () => {
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
  }, 600_000);
  afterAll(async () => {
    await emulator?.close();
  });

  it("a take-over's preview warning reaches the engine's diagnostics, as the package's does", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console" });
    const stack = await yamlPluginProject("plugin-adopt", emulator, yamlTakeOver(uuid!), repositoryPlugin);
    try {
      const preview = await stack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(new RegExp(`warning: .*will take over notebook ${uuid}`));
    } finally {
      stack.project.dispose();
    }
  }, 300_000);

  // The engine prints a failure that names a property as `property <p> value <inputs[p]>`: `{<nil>}` for a path such as podTypes[0],
  // the whole value for a top-level key. The plugin's failures name no property and carry the path and the value, cut, in the reason.
  it("a check failure through the engine names the path and the value, a long one cut with its length", async () => {
    const stack = await yamlPluginProject(
      "plugin-check-failure",
      emulator,
      `
resources:
  team:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-gpu-a100
      podTypes: [train]
      description: ${"0123456789".repeat(200)}
`,
      repositoryPlugin,
    );
    try {
      const preview = await stack.pulumi("preview");
      expect(preview.status, preview.output).not.toBe(0);
      expect(preview.output).toContain(
        `error: aicp:index:ResourceGroup resource 'team' has a problem: podTypes[0] Invalid option: expected one of "infer"|"instance"|"job", got "train"\n`,
      );
      expect(preview.output).toContain(
        `error: aicp:index:ResourceGroup resource 'team' has a problem: description must be at most 977 characters ` +
          `(the platform's 1024, less 47 for the provider's ownership mark), ` +
          `got "01234567890123456789012345678901234567890123456789012345678901234567890123456…" (2,000 characters)\n`,
      );
      expect(preview.output).not.toContain("<nil>");
      expect(preview.output).not.toContain("0123456789".repeat(8));
    } finally {
      stack.project.dispose();
    }
  }, 300_000);
});
