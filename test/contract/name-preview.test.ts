/**
 * A preview refuses what the up would refuse: a pinned name held by an object
 * without this resource's mark fails check (which a preview runs) with the
 * AICP_CONFLICT the create would give, after one read-only lookup, and with
 * nothing written. A holder with this resource's own mark (an interrupted
 * earlier run) is left to the create to decide; an auto-name or an existing
 * resource costs no lookup. In-process against the emulator over HTTP; the
 * expected texts are written out here by hand. Through the real engine:
 * test/e2e/settings-preview.test.ts.
 */
import { sendingAs } from "../../client/user-agent";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import { configureFrom, currentSettings } from "../../provider/context";
import { checkNotebook } from "../../provider/notebook/inputs";
import * as notebook from "../../provider/notebook";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import * as resourceGroup from "../../provider/resource-group";
import type { ResourceGroupInputs } from "../../provider/resource-group";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";

const markOf = (name: string) => createHash("md5").update(`test-stack/${name}`).digest("hex");

/** Inputs as check completes them (user, namespace, defaults) without its look at the name: the create's own view. */
const checkedWithoutLookup = (inputs: NotebookInputs) => checkNotebook({}, inputs, currentSettings()).inputs;

/** The error a promise rejects with, or undefined when it resolves. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error) => error,
  );

/**
 * The Notebook operations of a provider process of its own, as each pulumi
 * command starts one: the checks of one command share a walk up to a few
 * seconds old (provider/notebook/listing.ts holdersForCheck), never one of an
 * earlier command.
 */
async function nextCommand(): Promise<typeof notebook> {
  vi.resetModules();
  (await import("../../provider/context")).configureFrom(emulatorSettings(emulator));
  return import("../../provider/notebook");
}

let emulator: Emulator;

describe("a pinned name held outside the resource fails the preview", () => {
  let outside: AicpClient;
  const apiRequests = () => emulator.requests().filter((r) => r.operation !== "admin");
  const notebookInputs = (name: string, extra: Partial<NotebookInputs> = {}) =>
    validNotebookInputs({ logicalName: name, autoNameSuffix: "abc1234", ownerMark: markOf(name), ...extra });
  const groupInputs = (name: string, extra: Partial<ResourceGroupInputs> = {}) =>
    ({ logicalName: name, autoNameSuffix: "abc1234", ownerMark: markOf(name), skuId: "sku-1", podTypes: ["instance"], ...extra }) as ResourceGroupInputs;

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 20 });
    configureFrom(emulatorSettings(emulator));
    outside = new AicpClient({ baseUrl: emulator.url, zone: "xb3", credentials: emulatorCredentials });
  });
  afterAll(async () => {
    await outside?.close();
    await emulator?.close();
  });
  beforeEach(() => emulator.clearRequests());

  it("Notebook: a console-made holder fails check with the create's AICP_CONFLICT, after one read", async () => {
    // Inputs as a preview before the console's create would have checked them (another process: nothing of its walks is kept).
    const checkedEarlier = checkedWithoutLookup(notebookInputs("pinned", { name: "console-0000" }));
    const [uuid] = emulator.seedNotebooks({ namespace: "usr-emulator", count: 1, namePrefix: "console" });
    emulator.clearRequests();
    const error = await rejection((await nextCommand()).check({}, notebookInputs("pinned", { name: "console-0000" })));
    expect(error?.message).toBe(
      `namespace usr-emulator already holds a notebook named 'console-0000': ${uuid} (Running, not made by Pulumi). It does not carry this resource's ` +
        "mark. The provider will not adopt, change or delete it, nor send a second create under its name. Choose another `name` (or a different " +
        "resource name for an auto-name), or remove that notebook first if it is no longer used, or if this resource is not created yet, take it " +
        `over: \`adoptId: "${uuid}"\` in its arguments (the preview shows what the take-over changes).`,
    );
    expect((error as { code?: string }).code).toBe("AICP_CONFLICT");
    expect(apiRequests().map((r) => `${r.method} ${r.operation}`)).toEqual(["GET listNotebooks"]);
    // The up's create, reached without check (say, the holder appeared after the preview), says the same.
    const atCreate = await rejection(notebook.create(checkedEarlier));
    expect(atCreate?.message).toBe(error?.message);
    expect(apiRequests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("Notebook: from the plugin, the take-over of a console-made holder is pulumi import (or adoptId)", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: "usr-emulator", count: 1, namePrefix: "plugin-held" });
    sendingAs("plugin");
    try {
      const error = await rejection((await nextCommand()).check({}, notebookInputs("pinned", { name: "plugin-held-0000" })));
      expect(error?.message).toContain(
        "or if this resource is not created yet, take it over: `pulumi import` of this resource with the id " +
          `${uuid}, or \`adoptId: ${uuid}\` in its arguments.`,
      );
    } finally {
      sendingAs("nodejs");
    }
  });

  it("Notebook: a holder made by another Pulumi resource fails check, naming that", async () => {
    const other = await notebook.create((await notebook.check({}, notebookInputs("theirs", { name: "taken" }))).inputs!);
    emulator.clearRequests();
    const error = await rejection(notebook.check({}, notebookInputs("mine", { name: "taken" })));
    expect(error?.message).toBe(
      `namespace usr-emulator already holds a notebook named 'taken': ${other.id} (Running, made by another Pulumi resource). It does not carry this ` +
        "resource's mark. The provider will not adopt, change or delete it, nor send a second create under its name. Choose another `name` (or a " +
        "different resource name for an auto-name), or remove that notebook first if it is no longer used.",
    );
    expect(apiRequests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("Notebook: a holder with this resource's own mark, an auto-name, or an existing resource passes check", async () => {
    await notebook.create((await notebook.check({}, notebookInputs("again", { name: "mine-again" }))).inputs!);
    expect((await notebook.check({}, notebookInputs("again", { name: "mine-again" }))).failures).toBeUndefined();
    emulator.clearRequests();
    expect((await notebook.check({}, notebookInputs("auto"))).failures).toBeUndefined();
    const existing = notebookInputs("kept", { name: "console-0000" });
    expect((await notebook.check(existing, existing)).failures).toBeUndefined();
    expect(apiRequests()).toEqual([]);
  });

  it("ResourceGroup: a console-made holder fails check with the create's AICP_CONFLICT, after one read", async () => {
    const checkedEarlier = (await resourceGroup.check({}, groupInputs("pool", { name: "console-group" }))).inputs!;
    const made = await outside.createResourceGroup({
      name: "console-group",
      description: "made in the console",
      sku_id: "sku-1",
      pod_type: ["instance"],
      customize_enable: 0,
    });
    emulator.clearRequests();
    const error = await rejection(resourceGroup.check({}, groupInputs("pool", { name: "console-group" })));
    expect(error?.message).toBe(
      `this account already holds a resource group named 'console-group': ${made.rg_id} (${made.status ?? "status unknown"}, not made by Pulumi). It ` +
        "does not carry this resource's mark. The provider will not adopt, change or delete it, nor send a second create under its name. Choose another " +
        "`name` (or a different resource name for an auto-name), or remove that resource group first if it is no longer used, or if this resource is " +
        `not created yet, take it over: \`adoptId: "${made.rg_id}"\` in its arguments (the preview shows what the take-over changes).`,
    );
    expect((error as { code?: string }).code).toBe("AICP_CONFLICT");
    expect(apiRequests().every((r) => r.method === "GET")).toBe(true);
    const atCreate = await rejection(resourceGroup.create(checkedEarlier));
    expect(atCreate?.message).toBe(error?.message);
    expect(apiRequests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("ResourceGroup: a rename to a name held by a copy of its own mark fails check, before the replacement deletes the group", async () => {
    const olds = (await resourceGroup.check({}, groupInputs("moved", { name: "rg-moved-old" }))).inputs!;
    const recorded = await resourceGroup.create(olds);
    // A colleague's group under the new name with this resource's description, mark included, pasted in.
    const original = emulator.listResourceGroups().find((g) => g.rg_id === recorded.id)!;
    await outside.createResourceGroup({
      name: "rg-moved-new",
      description: String(original.description),
      sku_id: "sku-1",
      pod_type: ["instance"],
      customize_enable: 0,
    });
    const error = await rejection(resourceGroup.check(olds, groupInputs("moved", { name: "rg-moved-new" })));
    expect((error as { code?: string } | undefined)?.code).toBe("AICP_CONFLICT");
    expect(error?.message).toContain("already holds a resource group named 'rg-moved-new'");
  });

  it("Notebook: a rename to a name held outside fails check too, before the replacement deletes the notebook", async () => {
    const olds = (await notebook.check({}, notebookInputs("renamed", { name: "rn-old" }))).inputs!;
    await notebook.create(olds);
    const [uuid] = emulator.seedNotebooks({ namespace: "usr-emulator", count: 1, namePrefix: "held" });
    emulator.clearRequests();
    // The rename is checked by a later command: a provider process of its own, whose checks share no walk of this one.
    const error = await rejection((await nextCommand()).check(olds, notebookInputs("renamed", { name: "held-0000" })));
    expect(error?.message).toBe(
      `namespace usr-emulator already holds a notebook named 'held-0000': ${uuid} (Running, not made by Pulumi). It does not carry this resource's ` +
        "mark. The provider will not adopt, change or delete it, nor send a second create under its name. Choose another `name` (or a different " +
        "resource name for an auto-name), or remove that notebook first if it is no longer used, or if this resource is not created yet, take it " +
        `over: \`adoptId: "${uuid}"\` in its arguments (the preview shows what the take-over changes).`,
    );
    expect(apiRequests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("ResourceGroup: a rename to a name held outside fails check too", async () => {
    const olds = (await resourceGroup.check({}, groupInputs("renamed-pool", { name: "rg-old" }))).inputs!;
    await resourceGroup.create(olds);
    const made = await outside.createResourceGroup({
      name: "held-group",
      description: "made in the console",
      sku_id: "sku-1",
      pod_type: ["job"],
      customize_enable: 0,
    });
    const error = await rejection(resourceGroup.check(olds, groupInputs("renamed-pool", { name: "held-group" })));
    expect(error?.message).toContain(`this account already holds a resource group named 'held-group': ${made.rg_id} (`);
  });

  it("Notebook: a holder with this resource's mark passes check on any runner (a replacement's old object, docs/identity.md); the create decides", async () => {
    const inputs = notebookInputs("ci-run", { name: "ci-pinned" });
    const made = await notebook.create((await notebook.check({}, inputs)).inputs!);
    // Another CI runner: the same resource, a create journal without the entry of the run that made it.
    const journal = process.env.AICP_CREATE_JOURNAL_DIR;
    process.env.AICP_CREATE_JOURNAL_DIR = mkdtempSync(join(tmpdir(), "aicp-other-runner-"));
    try {
      const otherRunner = await nextCommand();
      // The check of a replacement (the engine passes no old inputs) sees the old notebook under the pinned name.
      expect((await otherRunner.check({}, inputs)).failures).toBeUndefined();
      // A create with no evidence of this resource's create does not take it.
      const atCreate = await rejection(otherRunner.create(checkedWithoutLookup(inputs)));
      expect(atCreate?.message).toContain(
        `namespace usr-emulator already holds a notebook named 'ci-pinned': ${made.id} (Running, carrying this resource's mark, but no record of ` +
          "this resource's creates names it: a copy of its settings, or made by a run whose record was lost).",
      );
    } finally {
      process.env.AICP_CREATE_JOURNAL_DIR = journal;
    }
  });
});
