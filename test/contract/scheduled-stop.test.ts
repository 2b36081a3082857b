/**
 * A notebook whose own stop time comes before it is ready (a slow start, a
 * stop time soon after the create): the platform stops it as the program
 * asked, so the create ends there, recording it Stopped, instead of waiting
 * for a Running that will not come.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { validNotebookInputs } from "../support/fixtures";
import { useTimings } from "../../provider/timing";

describe("a stop time that comes before the notebook is ready", () => {
  let emulator: Emulator;

  beforeAll(async () => {
    // Ready 6 s after a start: the stop time, 2 s after the create, comes first.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 6000 });
    useTimings({ pollIntervalMs: 100 });
    const settings: Record<string, string> = {
      "aicp:baseUrl": emulator.url,
      "aicp:accessKeyId": emulatorCredentials.accessKeyId,
      "aicp:secretAccessKey": emulatorCredentials.secretAccessKey,
      "aicp:userId": emulatorCredentials.userId,
      "aicp:zone": "xb3",
    };
    configureFrom((k) => settings[k]);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("create ends with the notebook Stopped on schedule, not a wait that runs out", async () => {
    const soon = new Date(Date.now() + 2000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const checked = await notebook.check(
      {},
      validNotebookInputs({ logicalName: "early-stop", autoNameSuffix: "abc1234", stopTime: soon, readyTimeoutSeconds: 20 }),
    );
    expect(checked.failures).toBeUndefined();
    const created = await notebook.create(checked.inputs!);
    expect(created.outs).toMatchObject({ status: "Stopped", desiredState: "Running" });
    expect(emulator.listNotebooks()[0]).toMatchObject({ status: "Stopped" });
  }, 30_000);
});
