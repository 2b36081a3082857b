/**
 * What only the real engine shows of the plugin's warnings: the plugin,
 * started by the engine with the engine's address, sends them over the
 * engine's Log service (provider/engine-log.ts), and the CLI prints them as
 * warnings. In-process (test/contract/plugin-truth.test.ts) the same warning
 * is read where a provider without an engine writes it. The plugin runs from
 * the repository's bin/ (how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

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
    const stack = await yamlPluginProject(
      "plugin-adopt",
      emulator,
      `
resources:
  research:
    type: aicp:index:Notebook
    properties:
      adoptId: ${uuid}
      chargeMode: elastic
      duration: 3600
      image: jupyter:2
      imageType: official
      serverType: jupyter
      replicaSpecs:
        customCpu: 2
`,
      repositoryPlugin,
    );
    try {
      const preview = await stack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(new RegExp(`warning: .*will take over notebook ${uuid}`));
    } finally {
      stack.project.dispose();
    }
  }, 300_000);
});
