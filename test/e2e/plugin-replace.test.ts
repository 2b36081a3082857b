/**
 * `pulumi up --replace` through the plugin (a YAML program, the real engine),
 * deleteBeforeReplace unset, as YAML and the generated SDKs leave it. For a
 * targeted replacement the engine asks the provider nothing (no diff), so it
 * creates first, beside an old object that holds the name (pinned, or the
 * auto-name, which is the same on every run of the stack) and carries the
 * resource's mark: the create refuses it, never takes it. The engine deletes
 * first where the stack's `pulumi:autonaming` names no random part for this
 * provider (its step_generator.go: "If autonaming settings had no randomness
 * in the name, we must delete before creating a replacement"), which the
 * README's recipe sets once per stack; then both kinds of name are replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { repositoryPlugin, yamlCpuNotebook, yamlPluginProject } from "../support/plugin-project";

const program = `
resources:${yamlCpuNotebook("pinned")}
      name: replace-pinned${yamlCpuNotebook("auto")}
`;

describe("pulumi up --replace through the plugin, deleteBeforeReplace unset", () => {
  let emulator: Emulator;
  let stack: Awaited<ReturnType<typeof yamlPluginProject>>;
  const live = () => emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId && n.status !== "Deleted" && !n.auto_delete_time);
  const urnOf = (name: string) => `urn:pulumi:ci::aicp-yaml::aicp:index:Notebook::${name}`;
  const recorded = async () => {
    const out = (await stack.pulumi("stack", "export")).output;
    const resources = (JSON.parse(out.slice(out.indexOf("{"))) as { deployment: { resources?: Array<{ type: string; urn: string; id?: string }> } }).deployment
      .resources;
    return Object.fromEntries((resources ?? []).filter((r) => r.type === "aicp:index:Notebook").map((r) => [r.urn.split("::").pop(), r.id]));
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 100 });
    stack = await yamlPluginProject("plugin-replace", emulator, program, repositoryPlugin);
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
  }, 240_000);
  afterAll(async () => {
    stack?.project.dispose();
    await emulator?.close();
  });

  it("is refused without the recipe, naming it, and nothing is deleted or created", async () => {
    const before = await recorded();
    for (const name of ["pinned", "auto"]) {
      emulator.clearRequests();
      const replace = await stack.pulumi("up", "--replace", urnOf(name));
      expect(replace.status, replace.output).not.toBe(0);
      expect(replace.output).toContain("pulumi:autonaming");
      expect(emulator.requests().filter((r) => r.method !== "GET" && r.operation !== "admin")).toEqual([]);
    }
    expect(await recorded()).toEqual(before);
    expect(live()).toHaveLength(2);
  }, 240_000);

  it("replaces a pinned name and an auto-name with the recipe: the old notebook deleted first, one notebook each", async () => {
    const set = await stack.pulumi("config", "set", "--path", "pulumi:autonaming.providers.aicp.pattern", "${name}");
    expect(set.status, set.output).toBe(0);
    for (const name of ["pinned", "auto"]) {
      const before = await recorded();
      const replace = await stack.pulumi("up", "--replace", urnOf(name));
      expect(replace.status, replace.output).toBe(0);
      const after = await recorded();
      expect(after[name]).not.toBe(before[name]);
      expect(live().map((n) => n.uuid)).not.toContain(before[name]);
      expect(live().map((n) => n.uuid)).toContain(after[name]);
      expect(live()).toHaveLength(2);
    }
    const destroy = await stack.pulumi("destroy");
    expect(destroy.status, destroy.output).toBe(0);
    expect(live()).toEqual([]);
  }, 240_000);
});
