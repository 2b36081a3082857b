/**
 * In-process: `pulumi import` through the plugin's Read
 * handler (called with the protocol's request, as the engine calls it) of an
 * object another stack made and marks. The engine's Read of an import is the
 * same request as a get's (an id, nothing recorded), and a get of another
 * stack's object is a read everyone needs, so the Read answers with a warning
 * naming the owner's mark; what would take the object (an update, a destroy)
 * is refused, naming it, with nothing sent.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import * as resourceGroup from "../../provider/resource-group";
import { provider as proto, toJson, toStruct } from "../../plugin/grpc";
import { providerServer } from "../../plugin/server";
import { emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { reliabilityCase } from "../support/reliability";
import { useTimings } from "../../provider/timing";

const markOf = (text: string) => createHash("md5").update(`import-ownership/${text}`).digest("hex");

/** Calls the plugin's Read as `pulumi import <type> <name> <id>` does: nothing recorded yet. */
function importRead(type: string, name: string, id: string): Promise<Record<string, unknown>> {
  const request = new proto.ReadRequest()
    .setId(id)
    .setUrn(`urn:pulumi:stack-b::project-b::${type}::${name}`)
    .setProperties(toStruct({}))
    .setInputs(toStruct({}));
  return new Promise((resolve, reject) => {
    const handler = providerServer.read as (
      call: { request: unknown },
      callback: (error: { details?: string } | null, response?: InstanceType<typeof proto.ReadResponse>) => void,
    ) => void;
    handler({ request }, (error, response) =>
      error ? reject(new Error(error.details)) : resolve({ id: response!.getId(), ...toJson(response!.getProperties()) }),
    );
  });
}

describe("import and destroy of another stack's objects", () => {
  let emulator: Emulator;
  const live = (uuid: string) => emulator.listNotebooks().some((n) => n.uuid === uuid && !n.auto_delete_time);
  const writes = () => emulator.requests().filter((r) => r.method !== "GET").length;

  const run = (name: string, body: Parameters<typeof reliabilityCase>[2]) => reliabilityCase("in-process", name, body);

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    useTimings({ pollIntervalMs: 50 });
    configureFrom(emulatorSettings(emulator));
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("pulumi import of a notebook stack A made (it carries A's mark) warns naming the mark; then update and destroy are refused and it lives on", () =>
    run("import of another stack's notebook", async (row) => {
      const markA = markOf("stack-a/shared");
      const inputs = (await notebook.check({}, validNotebookInputs({ logicalName: "shared", autoNameSuffix: "aaaa111", ownerMark: markA }))).inputs!;
      const made = await notebook.create(inputs);
      emulator.clearRequests();

      const warnings = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const imported = await importRead("aicp:index:Notebook", "shared", made.id);
      const warned = warnings.mock.calls.map((c) => String(c[0])).join("\n");
      warnings.mockRestore();
      expect(imported.id).toBe(made.id);
      expect(imported.ownerMark).not.toBe(markA);
      expect(warned).toContain(markA);

      // Stack B's program now changes it, then destroys it.
      const recordedByB = imported as never as Parameters<typeof notebook.update>[1];
      const updated = await notebook
        .update(made.id, recordedByB, { ...inputs, ownerMark: String(imported.ownerMark), image: "jupyter:2" })
        .catch((e: unknown) => e as Error);
      const destroyed = await notebook.remove(made.id, recordedByB).catch((e: unknown) => e as Error);
      row.taken += (updated instanceof Error ? 0 : 1) + (live(made.id) ? 0 : 1);
      expect(updated).toBeInstanceOf(Error);
      expect((updated as Error).message).toContain(markA);
      expect(destroyed).toBeInstanceOf(Error);
      expect((destroyed as Error & { code?: string }).code).toBe("AICP_CONFLICT");
      expect((destroyed as Error).message).toContain(markA);
      expect(live(made.id)).toBe(true);
      expect(writes()).toBe(0);
      await notebook.remove(made.id, made.outs!);
    }));

  it("pulumi import of a group stack A made (its description carries A's mark) warns; then update and destroy are refused and its mark stays", () =>
    run("import of another stack's group", async (row) => {
      const markA = markOf("stack-a/team");
      const inputs = (
        await resourceGroup.check({}, { logicalName: "team", autoNameSuffix: "bbbb222", ownerMark: markA, skuId: "sku-1", podTypes: ["job"] } as never)
      ).inputs!;
      const made = await resourceGroup.create(inputs);
      emulator.clearRequests();

      const warnings = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const imported = await importRead("aicp:index:ResourceGroup", "team", made.id);
      warnings.mockRestore();
      expect(imported.id).toBe(made.id);

      const recordedByB = imported as never as Parameters<typeof resourceGroup.update>[1];
      const updated = await resourceGroup
        .update(made.id, recordedByB, { ...inputs, ownerMark: String(imported.ownerMark), description: "ours now" })
        .catch((e: unknown) => e as Error);
      const destroyed = await resourceGroup.remove(made.id, recordedByB).catch((e: unknown) => e as Error);
      const group = emulator.listResourceGroups().find((g) => g.rg_id === made.id);
      row.taken += group && String(group.description).includes(markA) ? 0 : 1;
      expect(updated).toBeInstanceOf(Error);
      expect((updated as Error).message).toContain(markA);
      expect(destroyed).toBeInstanceOf(Error);
      expect((destroyed as Error).message).toContain(markA);
      expect(String(group?.description)).toContain(markA);
      expect(writes()).toBe(0);
    }));

  it("destroy of another stack's group checks its mark even when the first lookup misses it", () =>
    run("destroy of another stack's group, first lookup misses", async (row) => {
      const markA = markOf("stack-a/missed");
      const inputs = (
        await resourceGroup.check({}, { logicalName: "missed", autoNameSuffix: "dddd444", ownerMark: markA, skuId: "sku-1", podTypes: ["job"] } as never)
      ).inputs!;
      const made = await resourceGroup.create(inputs);
      // The direct lookup answers 404 and the list that confirms it omits the group, once.
      emulator.addFault({ kind: "http", status: 404, operation: "getResourceGroup", count: 1 });
      emulator.misbehave({ omit: { name: String(made.outs!.name), answers: 1 } });
      const destroyed = await resourceGroup.remove(made.id, { ...made.outs!, ownerMark: markOf("stack-b/missed") }).catch((e: unknown) => e as Error);
      emulator.clearMisbehaviour();
      const stillThere = emulator.listResourceGroups().some((g) => g.rg_id === made.id);
      row.taken += stillThere ? 0 : 1;
      expect(destroyed).toBeInstanceOf(Error);
      expect((destroyed as Error).message).toContain(markA);
      expect(stillThere).toBe(true);
    }));

  it("pulumi import of a notebook made in the console (no mark) still works", async () => {
    const inputs = (await notebook.check({}, validNotebookInputs({ logicalName: "console", autoNameSuffix: "cccc333" }))).inputs!;
    const made = await notebook.create(inputs);
    const imported = await importRead("aicp:index:Notebook", "console", made.id);
    expect(imported.id).toBe(made.id);
  });
});
