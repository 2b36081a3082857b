/** Starts an in-process emulator for one test file and builds the stack config pointing at it. */
import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";

export const emulatorCredentials = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" };

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, notebookReadyDelayMs: 200, ...options });
}

/** Stack configuration for the emulator, the secret key stored as a Pulumi secret. */
export function emulatorConfig(emulator: Emulator): Record<string, { value: string; secret?: boolean }> {
  return {
    "aicp:baseUrl": { value: emulator.url },
    "aicp:accessKeyId": { value: emulatorCredentials.accessKeyId },
    "aicp:secretAccessKey": { value: emulatorCredentials.secretAccessKey, secret: true },
    "aicp:userId": { value: emulatorCredentials.userId },
  };
}
