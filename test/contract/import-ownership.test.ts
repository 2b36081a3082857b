/**
 * Issue 22, item 3, in-process: `pulumi import` through the plugin's Read
 * handler (called with the protocol's request, as the engine calls it) of an
 * object another stack made and marks, and the destroy of an object imported
 * before that was refused. A notebook or a group carrying another resource's
 * mark is not taken: the import fails naming the owner's mark, and a delete
 * of such an object is refused the same way.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import * as resourceGroup from "../../provider/resource-group";
import { provider as proto, toJson, toStruct } from "../../plugin/grpc";
import { providerServer } from "../../plugin/server";
import { emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { reliabilityCase } from "../support/reliability";

const markOf = (text: string) => createHash("md5").update(`import-ownership/${text}`).digest("hex");

/** Calls the plugin's Read as `pulumi import <type> <name> <id>` does: nothing recorded yet. */
function importRead(type: string, name: string, id: string): Promise<Record<string, unknown>> {
  const request = new proto.ReadRequest().setId(id).setUrn(`urn:pulumi:stack-b::project-b::${type}::${name}`).setProperties(toStruct({})).setInputs(toStruct({}));
  return new Promise((resolve, reject) => {
    const handler = providerServer.read as (call: { request: unknown }, callback: (error: { details?: string } | null, response?: InstanceType<typeof proto.ReadResponse>) => void) => void;
    handler({ request }, (error, response) => (error ? reject(new Error(error.details)) : resolve({ id: response!.getId(), ...toJson(response!.getProperties()) })));
  });
}

describe("import and destroy of another stack's objects", () => {
  let emulator: Emulator;
  const live = (uuid: string) => emulator.listNotebooks().some((n) => n.uuid === uuid && !n.auto_delete_time);
  const writes = () => emulator.requests().filter((r) => r.method !== "GET").length;

  const run = (name: string, body: Parameters<typeof reliabilityCase>[2]) => reliabilityCase("in-process", name, body);

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    process.env.AICP_POLL_INTERVAL_MS = "50";
    configureFrom(emulatorSettings(emulator));
  });
  afterAll(async () => {
    delete process.env.AICP_POLL_INTERVAL_MS;
    await emulator?.close();
  });

  it("pulumi import of a notebook stack A made (it carries A's mark) fails naming the mark; destroy of one imported earlier is refused and it lives on", () =>
    run("import of another stack's notebook", async (row) => {
      const markA = markOf("stack-a/shared");
      const inputs = (await notebook.check({}, validNotebookInputs({ logicalName: "shared", autoNameSuffix: "aaaa111", ownerMark: markA }))).inputs!;
      const made = await notebook.create(inputs);
      emulator.clearRequests();

      const imported = await importRead("aicp:index:Notebook", "shared", made.id).catch((e: unknown) => e as Error);
      row.taken += imported instanceof Error ? 0 : 1;
      expect(imported).toBeInstanceOf(Error);
      expect((imported as Error).message).toContain(markA);
      expect((imported as Error).message).toMatch(/AICP_CONFLICT/);

      // A state that imported it before the check: it records stack B's mark, the notebook carries A's.
      const recordedByB = { ...made.outs!, ownerMark: markOf("stack-b/shared") };
      const destroyed = await notebook.remove(made.id, recordedByB).catch((e: unknown) => e as Error);
      row.taken += live(made.id) ? 0 : 1;
      expect(destroyed).toBeInstanceOf(Error);
      expect((destroyed as Error).message).toContain(markA);
      expect(live(made.id)).toBe(true);
      expect(writes()).toBe(0);
      await notebook.remove(made.id, made.outs!);
    }));

  it("pulumi import of a group stack A made (its description carries A's mark) fails naming the mark; destroy of one imported earlier is refused", () =>
    run("import of another stack's group", async (row) => {
      const markA = markOf("stack-a/team");
      const inputs = (await resourceGroup.check({}, { logicalName: "team", autoNameSuffix: "bbbb222", ownerMark: markA, skuId: "sku-1", podTypes: ["job"] } as never)).inputs!;
      const made = await resourceGroup.create(inputs);
      emulator.clearRequests();

      const imported = await importRead("aicp:index:ResourceGroup", "team", made.id).catch((e: unknown) => e as Error);
      row.taken += imported instanceof Error ? 0 : 1;
      expect(imported).toBeInstanceOf(Error);
      expect((imported as Error).message).toContain(markA);

      const destroyed = await resourceGroup.remove(made.id, { ...made.outs!, ownerMark: markOf("stack-b/team") }).catch((e: unknown) => e as Error);
      const stillThere = emulator.listResourceGroups().some((g) => g.rg_id === made.id);
      row.taken += stillThere ? 0 : 1;
      expect(destroyed).toBeInstanceOf(Error);
      expect((destroyed as Error).message).toContain(markA);
      expect(stillThere).toBe(true);
      expect(writes()).toBe(0);
    }));

  it("pulumi import of a notebook made in the console (no mark) still works", async () => {
    const inputs = (await notebook.check({}, validNotebookInputs({ logicalName: "console", autoNameSuffix: "cccc333" }))).inputs!;
    const made = await notebook.create(inputs);
    const imported = await importRead("aicp:index:Notebook", "console", made.id);
    expect(imported.id).toBe(made.id);
  });
});
