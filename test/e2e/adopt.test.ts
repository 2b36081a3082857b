/**
 * A way in for what exists, through the real engine and
 * CLI: `Notebook.get` and `ResourceGroup.get` read an object by id and fail
 * clearly for an unknown one; `adoptId` takes over a notebook or group made
 * in the console, shows in preview what it will change, and refuses, with
 * nothing changed, what it must not take.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { client } from "../emulator/client";
import { consoleGroup } from "../support/platform-console";

const user = emulatorCredentials.userId;
const namespace = user.toLowerCase();

const notebookArgs = (extra: string) =>
  `{ chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 ` +
  `}${extra} }`;

describe("a way in for what exists", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  async function setUp(name: string, program: string): Promise<CliStack & { write(text: string): void; console: ReturnType<typeof client> }> {
    const emulator = await startTestEmulator();
    cleanups.push(() => emulator.close());
    const stack = await cliStack(name, emulator, program);
    cleanups.push(() => stack.project.dispose());
    return { ...stack, write: (text) => writeFileSync(join(stack.project.dir, "index.js"), text), console: client(emulator) };
  }

  /** Creates a notebook as the console would; returns its uuid. */
  async function consoleNotebook(c: { console: ReturnType<typeof client> }, name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const body = {
      charge_mode: "elastic",
      duration: 3600,
      user_id: user,
      namespace,
      image: "jupyter:2",
      image_type: "official",
      name,
      server_type: "jupyter",
      replica_specs: { replicas: 1, specs: "sku-1", custom_cpu: 2 },
      ...extra,
    };
    const r = await c.console.post(`/notebooks/namespaces/${namespace}/create`, body);
    expect(r.json?.ret_code, r.text).toBe(0);
    return r.json.data[0].uuid as string;
  }

  const notebooksOf = (emulator: Emulator) => emulator.listNotebooks().filter((n) => n.namespace === namespace);

  it("Notebook.get reads a notebook by uuid; an unknown uuid fails naming it", async () => {
    const c = await setUp("get-notebook", "");
    const uuid = await consoleNotebook(c, "console-made");
    c.write(`const aicp = require("pulumi-aicp");\nexports.status = aicp.Notebook.get("shared", "${uuid}").image;\n`);
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect((await c.pulumi("stack", "output", "status")).output.trim()).toBe("jupyter:2");
    c.write(`const aicp = require("pulumi-aicp");\nexports.status = aicp.Notebook.get("missing", "nb-doesnotexist").status;\n`);
    const missing = await c.pulumi("up");
    expect(missing.status, missing.output).not.toBe(0);
    expect(missing.output).toContain("AICP_NOT_FOUND");
    expect(missing.output).toContain("nb-doesnotexist");
  }, 120_000);

  it("adoptId takes over a console notebook: preview says what changes, up changes it in place, destroy removes it", async () => {
    const c = await setUp("adopt-notebook", "");
    const uuid = await consoleNotebook(c, "console-made");
    c.write(
      `const aicp = require("pulumi-aicp");\nconst nb = new aicp.Notebook("research", ${notebookArgs(`, adoptId: "${uuid}"`)});\nexports.uuid = nb.uuid;\n`,
    );
    const preview = await c.pulumi("preview");
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toContain(`will take over notebook ${uuid} (console-made`);
    expect(preview.output).toContain("change image in place");
    c.emulator.clearRequests();
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    expect(c.emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(0);
    expect(notebooksOf(c.emulator)).toEqual([expect.objectContaining({ uuid, name: "console-made", image: "jupyter:1" })]);
    expect((await c.pulumi("stack", "output", "uuid")).output.trim()).toBe(uuid);
    expect((await c.pulumi("preview", "--expect-no-changes")).status).toBe(0);
    expect((await c.pulumi("destroy")).status).toBe(0);
    expect(notebooksOf(c.emulator).filter((n) => !n.auto_delete_time)).toEqual([]);
  }, 180_000);

  it("adoptId refuses, with nothing changed, a notebook another Pulumi resource made and one that would need a replacement", async () => {
    const c = await setUp("adopt-refused", "");
    const marked = await consoleNotebook(c, "other-stack", { envs: [{ name: "PULUMI_AICP_MARK", value: "0123456789abcdef0123456789abcdef" }] });
    const other = await consoleNotebook(c, "rstudio-one", { server_type: "rstudio" });
    for (const [uuid, words] of [
      [marked, "made by another Pulumi resource"],
      [other, "differs from the program in serverType"],
    ] as const) {
      c.write(`const aicp = require("pulumi-aicp");\nnew aicp.Notebook("research", ${notebookArgs(`, adoptId: "${uuid}"`)});\n`);
      c.emulator.clearRequests();
      const up = await c.pulumi("up");
      expect(up.status, up.output).not.toBe(0);
      expect(up.output).toContain("AICP_CONFLICT");
      expect(up.output).toContain(words);
      expect(c.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    }
    expect(notebooksOf(c.emulator).map((n) => n.image)).toEqual(["jupyter:2", "jupyter:2"]);
  }, 180_000);

  it("adoptId takes over a console group and marks it; ResourceGroup.get fails naming an unknown id", async () => {
    const c = await setUp("adopt-group", "");
    const rgId = await consoleGroup(c.emulator, "console-group");
    c.write(
      `const aicp = require("pulumi-aicp");\nnew aicp.ResourceGroup("team", { skuId: "sku-1", podTypes: ["job", "instance"], description: "ours now", ` +
        `adoptId: "${rgId}" });\n`,
    );
    const preview = await c.pulumi("preview");
    expect(preview.output).toContain(`will take over group ${rgId} (console-group)`);
    const up = await c.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const group = c.emulator.listResourceGroups().find((g) => g.rg_id === rgId)!;
    expect(group.name).toBe("console-group");
    expect(String(group.description)).toMatch(/^ours now \[pulumi-aicp [0-9a-f]{32}\]$/);
    expect((await c.pulumi("preview", "--expect-no-changes")).status).toBe(0);
    c.write(`const aicp = require("pulumi-aicp");\nexports.sku = aicp.ResourceGroup.get("gone", "rg-doesnotexist").skuId;\n`);
    const missing = await c.pulumi("up");
    expect(missing.status, missing.output).not.toBe(0);
    expect(missing.output).toContain("AICP_NOT_FOUND");
    expect(missing.output).toContain("rg-doesnotexist");
  }, 180_000);
});
