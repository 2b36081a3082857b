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

/** Creates a running training job in the emulator (a job of `endpoint` with one pod per replica). */
export async function createTrainingJob(emulator: Emulator, name: string, replicas: Array<{ replica_type: string; replicas: number }>, endpoint = "pytorchjobs"): Promise<void> {
  const { AicpClient } = await import("../../provider/client/client");
  const client = new AicpClient({ baseUrl: emulator.url, pathPrefix: "/qai/aicp", credentials: emulatorCredentials });
  try {
    await client.createTrainingJob(emulatorCredentials.userId, {
      charge_mode: "elastic",
      duration: 3600,
      name,
      endpoint,
      image: "pytorch/pytorch:2.3",
      image_type: "official",
      replica_specs: replicas,
    });
  } finally {
    await client.close();
  }
}
