/**
 * A green preview means a green up, through the real engine and CLI: what the
 * up would refuse fails `pulumi preview` of a TypeScript-package program,
 * with one line naming the setting or the name, and nothing written:
 * a wrong secret key, a wrong zone, an unreachable base URL (the check
 * configure makes, provider/settings-check.ts), a pinned name held by a
 * notebook or a resource group made in the console (check, create-once.ts
 * nameHeldByAnother).
 * aicp:skipCredentialsValidation lets the same preview pass with no platform.
 * The in-process tests of each rule: test/contract/settings-check.test.ts and
 * test/contract/name-preview.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";
import { consoleGroup } from "../support/platform-console";

const program = (name?: string) =>
  `const aicp = require("pulumi-aicp");\nnew aicp.Notebook("research", { ${name ? `name: "${name}", ` : ""}chargeMode: "elastic", duration: 3600, ` +
  `image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 } });\n`;

describe("pulumi preview fails where pulumi up would", () => {
  let emulator: Emulator;
  let c: CliStack;
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
  /** The preview with `config` set in the stack, then removed again. */
  async function previewWith(config: Record<string, string>) {
    for (const [key, value] of Object.entries(config)) await c.pulumi("config", "set", key, value);
    try {
      return await c.pulumi("preview");
    } finally {
      for (const key of Object.keys(config)) await c.pulumi("config", "rm", key);
    }
  }
  /**
   * The distinct errors the output carries, each from its code to the end of its line: the CLI prints one error
   * more than once (the resource's line, the program's rejection, Diagnostics), and it must be the same one.
   */
  const errorLines = (output: string) => [
    ...new Set(
      output
        .split("\n")
        .map((l) => /AICP_[A-Z]+: .*/.exec(l)?.[0].replace(/[:\s]+$/, ""))
        .filter((l) => l !== undefined),
    ),
  ];

  beforeAll(async () => {
    emulator = await startTestEmulator();
    c = await cliStack("settings-preview", emulator, program());
  }, 120_000);
  afterAll(async () => {
    c?.project.dispose();
    await emulator?.close();
  });

  it("a wrong secret key, zone or base URL fails the preview with one line naming the setting, and writes nothing", async () => {
    const key = await previewWith({ "aicp:secretAccessKey": "not-the-secret" });
    expect(key.status, key.output).not.toBe(0);
    expect(errorLines(key.output)).toEqual([
      expect.stringContaining(
        'AICP_CONFIG: credentials refused (HTTP 401, ret_code 1102, "signature does not match: check the secret access key and sign METHOD, ',
      ),
    ]);
    expect(errorLines(key.output)[0]).toContain(
      "check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY). Found by listNotebooks, request id ",
    );
    expect(key.output).not.toContain("not-the-secret");

    const zone = await previewWith({ "aicp:zone": "zz9" });
    expect(zone.status, zone.output).not.toBe(0);
    expect(errorLines(zone.output)).toEqual([
      expect.stringContaining(
        `AICP_CONFIG: zone 'zz9' refused (HTTP 400, "zone 'zz9' is unknown; known zones: xb3, xb2, hb2, hd1"): set aicp:zone (or AICP_ZONE) to your ` +
          "account's zone",
      ),
    ]);

    const url = await previewWith({ "aicp:baseUrl": "http://127.0.0.1:9", "aicp:requestTimeoutSeconds": "2" });
    expect(url.status, url.output).not.toBe(0);
    expect(errorLines(url.output)).toEqual([
      expect.stringContaining("AICP_CONFIG: cannot reach http://127.0.0.1:9: ECONNREFUSED; check aicp:baseUrl (or AICP_BASE_URL) and the network."),
    ]);
    expect(writes()).toEqual([]);
  }, 120_000);

  it("with aicp:skipCredentialsValidation the same preview passes with no platform at all", async () => {
    emulator.clearRequests();
    const offline = await previewWith({ "aicp:baseUrl": "http://127.0.0.1:9", "aicp:skipCredentialsValidation": "true" });
    expect(offline.status, offline.output).toBe(0);
    expect(offline.output).toMatch(/\+ {2,}pulumi-nodejs:dynamic\/aicp:Notebook +research +create/);
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  }, 60_000);

  it("a pinned name held by a notebook made in the console fails the preview with AICP_CONFLICT, and writes nothing", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: "usr-emulator", count: 1, namePrefix: "console-made" });
    writeFileSync(join(c.project.dir, "index.js"), program("console-made-0000"));
    emulator.clearRequests();
    const preview = await c.pulumi("preview");
    expect(preview.status, preview.output).not.toBe(0);
    expect(errorLines(preview.output)).toEqual([
      expect.stringContaining(
        `AICP_CONFLICT: namespace usr-emulator already holds a notebook named 'console-made-0000': ${uuid} (Running, not made by Pulumi). It does ` +
          "not carry this resource's mark. The provider will not adopt, change or delete it, nor send a second create under its name.",
      ),
    ]);
    expect(writes()).toEqual([]);
  }, 60_000);

  it("a pinned name held by a resource group made in the console fails the preview with AICP_CONFLICT, and writes nothing", async () => {
    const rgId = await consoleGroup(emulator, "console-group");
    writeFileSync(
      join(c.project.dir, "index.js"),
      `const aicp = require("pulumi-aicp");\nnew aicp.ResourceGroup("pool", { name: "console-group", skuId: "sku-1", podTypes: ["job"] });\n`,
    );
    emulator.clearRequests();
    const preview = await c.pulumi("preview");
    expect(preview.status, preview.output).not.toBe(0);
    expect(errorLines(preview.output)).toEqual([
      expect.stringContaining(`AICP_CONFLICT: this account already holds a resource group named 'console-group': ${rgId} (`),
    ]);
    expect(errorLines(preview.output)[0]).toContain("not made by Pulumi). It does not carry this resource's mark.");
    expect(writes()).toEqual([]);
  }, 60_000);
});
