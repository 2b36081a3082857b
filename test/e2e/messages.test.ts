/**
 * What a user reads (issue 12, item 6), through the real engine and CLI:
 * output types that match the values, one line per failure with its code and
 * the next step, and previews without noise.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator, EmulatorOptions } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { declaredKeys, declaredOutputs } from "../support/declared-keys";
import { startTestEmulator } from "../support/emulator";

const notebook = (extra = "") => `
const aicp = require("pulumi-aicp");
const nb = new aicp.Notebook("research", { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official",
  serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 }, stopTime: "2031-01-01T00:00:00Z"${extra} });
exports.servers = nb.servers;
exports.stopTime = nb.stopTime;
`;

describe("what a user reads", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  async function setUp(name: string, program: string, options: EmulatorOptions = {}): Promise<CliStack & { write(text: string): void; emulator: Emulator }> {
    const emulator = await startTestEmulator(options);
    cleanups.push(() => emulator.close());
    const stack = await cliStack(name, emulator, program);
    cleanups.push(() => stack.project.dispose());
    return { ...stack, write: (text) => writeFileSync(join(stack.project.dir, "index.js"), text) };
  }

  it("servers outputs carry the keys their declared type names (targetPort, serverName, …), not the wire's", async () => {
    const c = await setUp("servers-type", notebook());
    expect((await c.pulumi("up")).status).toBe(0);
    const out = await c.pulumi("stack", "output", "servers", "--json", "--show-secrets");
    const servers = JSON.parse(out.output.slice(out.output.indexOf("["))) as Array<Record<string, unknown>>;
    const declared = declaredKeys(resolve("sdk/types.ts"), "NotebookServer").filter((k) => k !== "password");
    expect(Object.keys(servers[0]!).sort()).toEqual(declared);
    expect(servers[0]!.targetPort).toBe(8888);
  }, 120_000);

  /** How many times the CLI prints `line` under Diagnostics. */
  const printed = (output: string, line: string) => output.slice(output.indexOf("Diagnostics:")).split(line).length - 1;

  it.each([
    ["Output", "exports.servers = aicp.getNotebookServersOutput({ uuid: \"\" });"],
    ["Promise", "exports.servers = aicp.getNotebookServers({ uuid: \"\" });"],
  ])("a failing function (%s form) prints one line with its code, no stack trace, no more often than Pulumi's own RunError", async (form, call) => {
    const c = await setUp(`function-error-${form.toLowerCase()}`, `const aicp = require("pulumi-aicp");\n${call}\n`);
    const up = await c.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    const line = "error: AICP_VALIDATION: invalid getNotebookServers arguments; nothing was sent to the platform: uuid: must not be empty\n";
    expect(printed(up.output, line), up.output).toBeGreaterThanOrEqual(1);
    expect(up.output).not.toContain("Unhandled exception");
    expect(up.output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    // The baseline: the SDK's own RunError, exported the same way, as the engine prints it (twice, with this CLI).
    const wrapper = form === "Output" ? "pulumi.output(1).apply(() => { throw new pulumi.RunError(\"baseline\"); })" : "Promise.reject(new pulumi.RunError(\"baseline\"))";
    c.write(`const pulumi = require("@pulumi/pulumi");\nexports.servers = ${wrapper};\n`);
    const baseline = await c.pulumi("up");
    expect(printed(up.output, line)).toBeLessThanOrEqual(printed(baseline.output, "error: baseline\n"));
  }, 120_000);

  it("a route the user configured that the platform does not serve is called configured, never assumed", async () => {
    const group = `const aicp = require("pulumi-aicp");\nnew aicp.ResourceGroup("pool", { skuId: "sku-gpu-a100", podTypes: ["instance"] });\n`;
    const c = await setUp("configured-route", group);
    expect((await c.pulumi("up")).status).toBe(0);
    const destroyWith = (route: string) =>
      c.project.run("env", `AICP_ROUTES=${JSON.stringify({ deleteResourceGroup: route })}`, "pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci");
    // A route that breaks the rules: one line with the code, no stack trace.
    const invalid = await destroyWith("POST /resource/resource_group/remove");
    expect(invalid.status, invalid.output).not.toBe(0);
    expect(invalid.output).toContain("AICP_CONFIG: aicp:routes (or AICP_ROUTES): deleteResourceGroup path must use the placeholders {rg_id}");
    expect(invalid.output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    const destroy = await destroyWith("POST /resource/resource_group/{rg_id}/remove");
    expect(destroy.status, destroy.output).not.toBe(0);
    expect(destroy.output).toContain("configured in aicp:routes");
    expect(destroy.output).not.toContain("assumed");
  }, 120_000);

  it("updating a notebook deleted outside Pulumi says to refresh, not a bare 404", async () => {
    const c = await setUp("deleted-update", notebook());
    expect((await c.pulumi("up")).status).toBe(0);
    const [nb] = c.emulator.listNotebooks();
    expect(c.emulator.deleteNotebook(String(nb!.uuid))).toBe(true);
    c.write(notebook().replace("2031-01-01T00:00:00Z", "2031-02-01T00:00:00Z"));
    const up = await c.pulumi("up");
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain("deleted outside Pulumi");
    expect(up.output).toContain("`pulumi refresh`");
  }, 120_000);

  it("every declared output of a notebook and a group is known in a preview of an unchanged program, also where the platform has no value", async () => {
    const names = { Notebook: declaredOutputs(resolve("sdk/notebook.ts"), "Notebook"), ResourceGroup: declaredOutputs(resolve("sdk/resource-group.ts"), "ResourceGroup") };
    expect(names.Notebook).toContain("autoDeleteTime");
    expect(names.ResourceGroup).toContain("reason");
    const exported = (variable: string, keys: string[]) => keys.map((k) => `exports.${variable}_${k} = ${variable}.${k};`).join("\n");
    const program = `${notebook()}
const group = new aicp.ResourceGroup("pool", { skuId: "sku-gpu-a100", podTypes: ["instance"] });
${exported("nb", names.Notebook)}
${exported("group", names.ResourceGroup)}
`;
    const c = await setUp("all-outputs", program);
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const preview = await c.pulumi("preview", "--diff");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).not.toContain("[unknown]");
  }, 120_000);

  // A platform in UTC+8 writes the program's "…T00:00:00Z" as "…T08:00:00" (platform-api B5 "Times").
  it.each(["UTC", "+08:00"] as const)("a preview of an unchanged program lists no unknown outputs, and neither a refresh nor the platform's zone (%s) turns a time's spelling into a change", async (zone) => {
    const c = await setUp(`quiet-preview-${zone === "UTC" ? "utc" : "cst"}`, notebook(), { dialect: { bareTimeZone: zone } });
    expect((await c.pulumi("up")).status).toBe(0);
    const quiet = await c.pulumi("preview", "--diff", "--expect-no-changes");
    expect(quiet.status, quiet.output).toBe(0);
    expect(quiet.output).not.toContain("[unknown]");
    expect((await c.pulumi("refresh")).status).toBe(0);
    c.write(notebook(', image: "jupyter:2"').replace('image: "jupyter:1", ', ""));
    const update = await c.pulumi("preview", "--diff");
    expect(update.status, update.output).toBe(0);
    expect(update.output).toMatch(/image\s*:\s*"jupyter:1"\s*=>\s*"jupyter:2"/);
    expect(update.output).not.toMatch(/stopTime\s*:.*=>/);
    expect(update.output).not.toContain("[unknown]");
  }, 120_000);
});
