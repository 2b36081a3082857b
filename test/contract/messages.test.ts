/**
 * What a user reads, through the in-process engine (the
 * plugin's gRPC service, test/support/engine): output types that match the
 * values, one line per failure with its code and the next step, and previews
 * without noise. What only the CLI shows (a failing function in a TypeScript
 * program printed once, with no stack trace) is test/e2e/messages.test.ts.
 */
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { declaredKeys, declaredOutputs } from "../support/declared-keys";
import { failed, inProcessCases, ops, research } from "../support/engine/notebook-stack";
import { isUnknown, plain, type CommandResult, type Program } from "../support/engine/stack";
import { requestsBeyondSettingsCheck } from "../support/emulator";

const stopTime = "2031-01-01T00:00:00Z";
const group = { kind: "ResourceGroup" as const, name: "pool", inputs: { skuId: "sku-gpu-a100", podTypes: ["instance"] } };

/** The declared outputs of `names` that the preview leaves unknown to the program (absent from what it records, or unknown). */
function unknownIn(preview: CommandResult, key: string, names: string[]): string[] {
  const outputs = preview.outputs[key]!;
  return names.filter((name) => !Object.keys(outputs).includes(name) || isUnknown(outputs[name]));
}

const declared = {
  Notebook: declaredOutputs(resolve("sdk/notebook.generated.ts"), "NotebookProperties"),
  ResourceGroup: declaredOutputs(resolve("sdk/resource-group.ts"), "ResourceGroup"),
};

describe("what a user reads (in-process engine)", () => {
  const cases = inProcessCases();
  afterAll(() => cases.dispose());

  it("servers outputs carry the keys their declared type names (targetPort, serverName, …), not the wire's", async () => {
    const { stack } = await cases.setUp();
    await stack.up(research({ stopTime }));
    const servers = plain(stack.find("research")!.outputs.servers) as Array<Record<string, unknown>>;
    const keys = declaredKeys(resolve("sdk/types.ts"), "NotebookServer").filter((k) => k !== "password");
    expect(keys).toContain("targetPort");
    expect(Object.keys(servers[0]!).sort()).toEqual(keys);
    expect(servers[0]!.targetPort).toBe(8888);
  });

  it("a failing function fails the command with one line: its code, what was wrong, that nothing was sent", async () => {
    const { stack, emulator } = await cases.setUp();
    const program: Program = {
      resources: [{ kind: "Notebook", name: "research", inputs: async (_outs, invoke) => ({ servers: await invoke("getNotebookServers", { uuid: "" }) }) }],
    };
    emulator.clearRequests();
    const error = await failed(stack.up(program));
    expect(error.text).toBe("AICP_VALIDATION: invalid getNotebookServers arguments; nothing was sent to the platform: uuid: must not be empty");
    expect(requestsBeyondSettingsCheck(emulator)).toEqual([]);
  });

  // The engine prints a failure with a property as `property <p> value <inputs[p]>`: for a path such as podTypes[0] the value is lost
  // (`{<nil>}`), for a top-level key the whole value is repeated. The plugin names both in the reason instead (test/e2e/plugin-diagnostics.test.ts
  // shows the engine's line).
  it("a check failure names the property path and the value the program wrote, a long value cut with its length, a secret never", async () => {
    const { stack, emulator } = await cases.setUp();
    emulator.clearRequests();
    const enumValue = await failed(stack.preview({ resources: [{ ...group, inputs: { ...group.inputs, podTypes: ["train"] } }] }));
    expect(enumValue.text).toBe(
      `aicp:index:ResourceGroup resource 'pool' has a problem: podTypes[0] Invalid option: expected one of "infer"|"instance"|"job", got "train"`,
    );
    const long = await failed(stack.preview(research({ description: "0123456789".repeat(200) })));
    expect(long.text).toBe(
      `aicp:index:Notebook resource 'research' has a problem: description is not a Notebook argument, ` +
        `got "01234567890123456789012345678901234567890123456789012345678901234567890123456…" (2,000 characters)`,
    );
    const hidden = await failed(stack.preview(research({ envs: [{ name: "", value: "hf_never_shown" }] })));
    expect(hidden.text).toBe(`aicp:index:Notebook resource 'research' has a problem: envs[0].name must not be empty`);
    expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
  });

  it("a route the user configured that the platform does not serve is called configured, never assumed", async () => {
    const { stack } = await cases.setUp();
    await stack.up({ resources: [group] });
    // A route that breaks the rules: the plugin's CheckConfig refuses it, naming the setting, in one line.
    stack.options.config.routes = JSON.stringify({ deleteResourceGroup: "POST /resource/resource_group/remove" });
    const invalid = await failed(stack.destroy());
    expect(invalid.text).toMatch(/^routes: aicp:routes \(or AICP_ROUTES\): deleteResourceGroup path must use the placeholders \{rg_id\}/);
    expect(invalid.text).not.toContain("\n");
    stack.options.config.routes = JSON.stringify({ deleteResourceGroup: "POST /resource/resource_group/{rg_id}/remove" });
    const destroy = await failed(stack.destroy());
    expect(destroy.text).toContain("configured in aicp:routes");
    expect(destroy.text).not.toContain("assumed");
  });

  it("updating a notebook deleted outside Pulumi says to refresh, not a bare 404", async () => {
    const { stack, emulator } = await cases.setUp();
    await stack.up(research({ stopTime }));
    expect(emulator.deleteNotebook(String(emulator.listNotebooks()[0]!.uuid))).toBe(true);
    const error = await failed(stack.up(research({ stopTime: "2031-02-01T00:00:00Z" })));
    expect(error.text).toContain("deleted outside Pulumi");
    expect(error.text).toContain("`pulumi refresh`");
  });

  it("every declared output of a notebook and a group is known in a preview of an unchanged program, also where the platform has no value", async () => {
    expect(declared.Notebook).toContain("autoDeleteTime");
    expect(declared.ResourceGroup).toContain("reason");
    const { stack } = await cases.setUp();
    const program = research({ stopTime });
    program.resources.push(group);
    await stack.up(program);
    const preview = await stack.preview(program);
    expect(ops(preview)).toEqual(["research:same", "pool:same"]);
    expect(unknownIn(preview, "research", declared.Notebook)).toEqual([]);
    expect(unknownIn(preview, "pool", declared.ResourceGroup)).toEqual([]);
  });

  // A platform in UTC+8 writes the program's "…T00:00:00Z" as "…T08:00:00" (platform-api B5 "Times").
  it.each(["UTC", "+08:00"] as const)(
    "a preview of an unchanged program lists no unknown outputs, and neither a refresh nor the platform's zone (%s) turns a time's spelling into a change",
    async (zone) => {
      const { stack } = await cases.setUp({ dialect: { bareTimeZone: zone } });
      await stack.up(research({ stopTime }));
      const quiet = await stack.preview(research({ stopTime }));
      expect(ops(quiet)).toEqual(["research:same"]);
      expect(unknownIn(quiet, "research", declared.Notebook)).toEqual([]);
      await stack.refresh();
      const update = await stack.preview(research({ stopTime, image: "jupyter:2" }));
      expect(ops(update)).toEqual(["research:update"]);
      expect(update.steps[0]!.diffs).toEqual(["image"]);
      // The provider does not preview: the update's recorded outputs are the program's inputs, its time as written.
      expect(update.outputs.research).toMatchObject({ image: "jupyter:2", stopTime });
    },
  );
});
