/**
 * A function whose request the platform refuses for a setting (keys, zone,
 * user id) says which setting, as the settings check of a resource does
 * (client/first-contact.ts): a newcomer's trial with a wrong secret key saw
 * the function's bare HTTP 401 first, under a resource property that took
 * its result. On both fronts; over real HTTP to the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { resolveSettings } from "../../client/config";
import { functions } from "../../plugin/functions";
import { configureFrom } from "../../provider/context";
import { getResourceTemplates } from "../../sdk";
import { takeSettingsFrom } from "../../sdk/functions/program-client";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

describe("a function refused for its settings", () => {
  let emulator: Emulator;
  let config: Record<string, string>;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    config = {
      "aicp:baseUrl": emulator.url,
      "aicp:accessKeyId": emulatorCredentials.accessKeyId,
      "aicp:secretAccessKey": "not-the-secret",
      "aicp:userId": emulatorCredentials.userId,
      "aicp:zone": "xb3",
    };
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("TypeScript package: names the keys to check", async () => {
    takeSettingsFrom(() => resolveSettings((key) => config[key], {}));
    const message = messageOf(await getResourceTemplates({}).catch((e: unknown) => e));
    expect(message).toContain("HTTP 401");
    expect(message).toContain("check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY)");
    expect(message).not.toContain("not-the-secret");
  });

  it("plugin: names the keys to check", async () => {
    configureFrom((key) => config[key], { checkable: false });
    const message = messageOf(await functions.getResourceTemplates.call({} as never).catch((e: unknown) => e));
    expect(message).toContain("HTTP 401");
    expect(message).toContain("check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY)");
  });

  it("a zone the platform refuses: names aicp:zone", async () => {
    takeSettingsFrom(() => resolveSettings((key) => ({ ...config, "aicp:secretAccessKey": emulatorCredentials.secretAccessKey, "aicp:zone": "zz9" })[key], {}));
    const message = messageOf(await getResourceTemplates({}).catch((e: unknown) => e));
    expect(message).toContain("set aicp:zone");
  });
});
