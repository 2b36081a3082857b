/**
 * Moving a stack from the package's dynamic resources to the provider plugin:
 * the program of another language (YAML here) declares the same resources
 * with an alias naming their old type, and the engine keeps their identity:
 * no replacement, no create and no delete on the platform, the same name and
 * the same ownership mark (plugin/identity.ts keeps the recorded ones). The
 * plugin runs from the repository's bin/, named in the YAML program's
 * Pulumi.yaml (how it is packed and installed is
 * test/e2e/plugin-yaml.test.ts's).
 */
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { pluginsSection, repositoryPlugin, yamlHostDir } from "../support/plugin-project";
import { pulumiBinary } from "../support/pulumi";

const notebook = {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter:1",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: "sku-1", customCpu: 2 },
};

describe("moving a stack from the dynamic resources to the plugin", () => {
  let emulator: Emulator;
  let stack: CliStack;
  const ours = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
  const writes = () =>
    emulator
      .requests()
      .filter((r) => r.operation !== "admin" && r.method !== "GET")
      .map((r) => r.operation);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const path = `${yamlHostDir()}:${resolve(pulumiBinary(), "..")}:${process.env.PATH}`;
    stack = await cliStack("plugin-move", emulator, `const aicp = require("pulumi-aicp");\nnew aicp.Notebook("nb", ${JSON.stringify(notebook)});\n`, {
      PATH: path,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
  }, 600_000);
  afterAll(async () => {
    stack?.project.dispose();
    await emulator?.close();
  });

  it("keeps the notebook: the YAML program with an alias changes nothing on the platform, and destroy then deletes it", async () => {
    const first = await stack.pulumi("up");
    expect(first.status, first.output).toBe(0);
    const [made] = ours();
    expect(made).toBeDefined();

    const project = readFileSync(join(stack.project.dir, "Pulumi.yaml"), "utf8").match(/^name: (.*)$/m)![1]!;
    unlinkSync(join(stack.project.dir, "index.js"));
    const props = Object.entries(notebook)
      .map(([k, v]) => `      ${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
      .join("\n");
    writeFileSync(
      join(stack.project.dir, "Pulumi.yaml"),
      `name: ${project}\nruntime: yaml\n${pluginsSection(repositoryPlugin)}` +
        `resources:\n  nb:\n    type: aicp:index:Notebook\n    properties:\n${props}\n    options:\n      aliases:\n        ` +
        `- urn:pulumi:ci::${project}::pulumi-nodejs:dynamic/aicp:Notebook::nb\n`,
    );
    const preview = await stack.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).not.toMatch(/replace/);
    emulator.clearRequests();
    const moved = await stack.pulumi("up");
    expect(moved.status, moved.output).toBe(0);
    expect(writes()).toEqual([]);
    expect(ours().map((n) => [n.uuid, n.name])).toEqual([[made!.uuid, made!.name]]);

    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(ours()).toEqual([]);
  }, 600_000);
});
