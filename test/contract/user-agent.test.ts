/**
 * Every request names its sender: a User-Agent of the provider, its version
 * (package.json's, read here) and the front that sent it, and the
 * `Channel: api` header the platform's operator SDK sends
 * (docs/platform-api.md B6). Read from the emulator's own log of the
 * requests it received over real HTTP.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createClient, resolveSettings } from "../../client/config";
import * as aicp from "../../sdk";
import { emulatorConfig, emulatorSettings, startTestEmulator } from "../support/emulator";

const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

describe("what a request says of its sender", () => {
  let emulator: Emulator;
  const sent = () => emulator.requests().filter((r) => r.operation !== "admin");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    process.env.PULUMI_CONFIG = JSON.stringify(Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value])));
  });
  beforeEach(() => emulator.clearRequests());
  afterAll(async () => {
    delete process.env.PULUMI_CONFIG;
    await emulator?.close();
  });

  it("the provider's client: pulumi-aicp/<version> from the TypeScript package's provider, and Channel: api", async () => {
    const client = createClient(resolveSettings(emulatorSettings(emulator), {}));
    try {
      await client.listTemplates({ limit: 1 });
    } finally {
      await client.close();
    }
    expect(sent().map((r) => [r.userAgent, r.channel])).toEqual([[`pulumi-aicp/${version} (nodejs; node ${process.version}; ${process.platform})`, "api"]]);
  });

  it("a program's function says it comes from the program", async () => {
    await aicp.getResourceTemplates({ limit: 1 });
    const agents = sent().map((r) => r.userAgent);
    expect(agents.length).toBeGreaterThan(0);
    expect(agents.every((a) => a?.startsWith(`pulumi-aicp/${version} (program; `))).toBe(true);
    expect(sent().every((r) => r.channel === "api")).toBe(true);
  });
});
