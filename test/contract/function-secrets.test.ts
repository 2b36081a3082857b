/**
 * A function's Output form, called with an argument the program marked
 * secret: a failed call's message leaves that argument out and keeps the
 * others readable (sdk/functions/program-client.ts outputForm). Pulumi's mocks
 * stand in for the engine; the platform is the emulator, which names the job
 * it cannot find.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { resolveSettings } from "../../client/config";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";

/**
 * What a failed Output rejects with, read from its own promises (internal to @pulumi/pulumi, as its tests read
 * them): each rejects with the call's error, and those not awaited here are caught so none goes unhandled.
 */
async function rejectionOf(output: unknown): Promise<unknown> {
  const internals = output as { promise(): Promise<unknown>; isKnown: Promise<unknown>; isSecret: Promise<unknown> };
  for (const settled of [internals.isKnown, internals.isSecret]) settled.catch(() => undefined);
  return internals.promise().then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe("a function's Output form with a marked argument", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("fails without the marked argument in its message, the others readable", async () => {
    vi.resetModules();
    const pulumi = await import("@pulumi/pulumi");
    await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs }, "fn", "ci", false);
    const { takeSettingsFrom } = await import("../../sdk/functions/program-client");
    const settings = resolveSettings(() => undefined, {
      AICP_BASE_URL: emulator.url,
      QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      CORESHUB_USER_ID: emulatorCredentials.userId,
      AICP_ZONE: emulatorZone,
    });
    takeSettingsFrom(() => settings);
    const sdk = await import("../../sdk");
    const pods = sdk.getTrainingPodsOutput({ endpoint: "tfjobs", trainName: pulumi.secret("job-marked-7731") });
    const error = await rejectionOf(pods);
    expect(error, "the platform holds no such job").toBeInstanceOf(Error);
    const message = String((error as Error).message);
    expect(message).toContain("tfjobs");
    expect(message).not.toContain("job-marked-7731");
    // Nor in any field a program or a report prints (the route's path quotes it too).
    expect(JSON.stringify(error)).not.toContain("job-marked-7731");

    // getNotebookServersOutput, whose Output form also marks every password: a marked uuid the platform does not hold.
    const servers = sdk.getNotebookServersOutput({ namespace: emulatorCredentials.userId, uuid: pulumi.secret("nb-marked-uuid-4409") });
    const refused = await rejectionOf(servers);
    expect(refused, "the platform holds no such notebook").toBeInstanceOf(Error);
    expect(String((refused as Error).message)).toContain(emulatorCredentials.userId);
    expect(JSON.stringify({ message: (refused as Error).message, ...(refused as object) })).not.toContain("nb-marked-uuid-4409");
  });
});
