/**
 * The provider plugin as one self-contained executable
 * (scripts/plugin-executable.sh), through the real engine: its archive
 * installed as users install it (`pulumi plugin install … --file`), it serves
 * a YAML program's up, a function call and destroy with no `node` anywhere on
 * PATH (the PATH holds only the pulumi CLI and the YAML language host). The
 * lifecycle itself is the launcher plugin's to test (plugin-yaml.test.ts and
 * the contract tests): the same compiled code, bundled.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { pluginVersion, yamlCpuNotebook, yamlHostDir, yamlPluginProject, yamlTakeOver } from "../support/plugin-project";
import { pulumiBinary } from "../support/pulumi";

const repo = resolve(__dirname, "../..");

const program = `
resources:${yamlCpuNotebook("nb")}
variables:
  templates:
    fn::invoke:
      function: aicp:index:getResourceTemplates
      arguments:
        limit: 2
      return: templates
outputs:
  uuid: \${nb.uuid}
  templates: \${templates}
`;

describe("the plugin as a single executable, with no node on PATH", () => {
  let emulator: Emulator;
  let work: string;
  let archive: string;
  let nodeless: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "aicp-executable-"));
    const printed = execFileSync("bash", [join(repo, "scripts/plugin-executable.sh"), join(work, "out")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    archive = printed.trim().split("\n").pop()!;
    nodeless = join(work, "bin");
    mkdirSync(nodeless);
    symlinkSync(pulumiBinary(), join(nodeless, "pulumi"));
    symlinkSync(join(yamlHostDir(), "pulumi-language-yaml"), join(nodeless, "pulumi-language-yaml"));
  }, 180_000);
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("is named as the engine expects and installs from its archive", () => {
    expect(archive).toMatch(new RegExp(`/pulumi-resource-aicp-v${pluginVersion.replace(/\./g, "\\.")}-linux-(amd64|arm64)\\.tar\\.gz$`));
    expect(existsSync(join(nodeless, "node"))).toBe(false);
  });

  it("serves a YAML program's up, a function call and destroy", async () => {
    const stack = await yamlPluginProject("executable", emulator, program, archive, { PATH: nodeless });
    try {
      const up = await stack.pulumi("up");
      expect(up.status, up.output).toBe(0);
      const [notebook] = emulator.listNotebooks();
      expect(notebook?.status).toBe("Running");
      const outputs = await stack.pulumi("stack", "output", "--json");
      const read = JSON.parse(outputs.output) as { uuid: string; templates: unknown[] };
      expect(read.uuid).toBe(notebook!.uuid);
      expect(read.templates).toHaveLength(2);
      const destroy = await stack.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      expect(emulator.listNotebooks()).toEqual([]);
    } finally {
      stack.project.dispose();
    }
  }, 240_000);

  it("sends its warnings to the engine, which prints them as warnings (a take-over's preview)", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console" });
    const program = yamlTakeOver(uuid!);
    const stack = await yamlPluginProject("executable-warning", emulator, program, archive, { PATH: nodeless });
    try {
      const preview = await stack.pulumi("preview");
      expect(preview.status, preview.output).toBe(0);
      expect(preview.output).toMatch(new RegExp(`warning: .*will take over notebook ${uuid}`));
    } finally {
      stack.project.dispose();
    }
  }, 240_000);
});
