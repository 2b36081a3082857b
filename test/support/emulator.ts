/** Starts an in-process emulator for one test file and builds the stack config pointing at it. */
import { startEmulator, type Emulator, type EmulatorOptions, type RequestLogEntry } from "../../emulator";
import { signedRequest } from "./signed-request";

/** The emulator's default access key and the user it acts for (namespace usr-emulator). */
export const emulatorCredentials = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" };

/** The zone tests use: the public clients' default (platform-api B4). */
export const emulatorZone = "xb3";

/** An in-process emulator on a free port, notebooks ready after 200 ms, default dialect unless `options` say otherwise. */
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
    "aicp:zone": { value: emulatorZone },
  };
}

/** The provider's configuration source for the emulator, as configure() gets the stack's `aicp:*` config; `extra` adds or overrides keys. */
export function emulatorSettings(emulator: Emulator, extra: Record<string, string> = {}): (key: string) => string | undefined {
  const values: Record<string, string> = {
    "aicp:baseUrl": emulator.url,
    "aicp:accessKeyId": emulatorCredentials.accessKeyId,
    "aicp:secretAccessKey": emulatorCredentials.secretAccessKey,
    "aicp:userId": emulatorCredentials.userId,
    "aicp:zone": emulatorZone,
    ...extra,
  };
  return (key) => values[key];
}

/**
 * Creates a running training job in the emulator (a job of `endpoint` with one
 * pod per replica), signed as a public client signs, under the `/aicp` prefix.
 */
export async function createTrainingJob(
  emulator: Emulator,
  name: string,
  replicas: Array<{ replica_type: string; replicas: number }>,
  endpoint = "pytorchjobs",
): Promise<void> {
  const r = await signedRequest(emulator.url, {
    method: "POST",
    path: `/aicp/trains/namespaces/${emulatorCredentials.userId.toLowerCase()}/create`,
    query: { zone: emulatorZone },
    accessKeyId: emulatorCredentials.accessKeyId,
    secretAccessKey: emulatorCredentials.secretAccessKey,
    body: { charge_mode: "elastic", duration: 3600, name, endpoint, image: "pytorch/pytorch:2.3", image_type: "official", replica_specs: replicas },
    bodyHash: emulator.dialect().signatureBody,
  });
  if (r.status !== 200 || r.json?.ret_code !== 0) throw new Error(`creating training job '${name}' failed: HTTP ${r.status} ${r.text}`);
}

/** API requests the emulator is handling now (its admin API, emulator/admin.ts). */
export async function requestsInFlight(emulator: Emulator): Promise<number> {
  return ((await (await fetch(`${emulator.url}/__emulator/connections`)).json()) as { data: { inFlight: number } }).data.inFlight;
}

/** True once the emulator has answered a notebook create and then been asked for a list: the provider waits for Running. */
export function providerWaiting(emulator: Emulator): boolean {
  const log = emulator.requests();
  const created = log.findIndex((r) => r.operation === "createNotebook" && r.status === 200);
  return created >= 0 && log.slice(created + 1).some((r) => r.operation === "listNotebooks");
}

/**
 * The API requests `emulator` logged, but the one read that checks the
 * settings (provider/settings-check.ts: the first page of the namespace's
 * notebooks, unfiltered, or one template without a user id), which a test of
 * "nothing sent" for a resource or a function does not count. The check is a
 * provider process's first request: a walk's first page looks the same, and
 * is counted anywhere else.
 */
export function requestsBeyondSettingsCheck(emulator: Emulator): RequestLogEntry[] {
  const api = emulator.requests().filter((r) => r.operation !== "admin");
  const [first] = api;
  const isCheck =
    first?.method === "GET" &&
    first.query?.offset === "0" &&
    ((first.operation === "listNotebooks" && first.query?.name === undefined) || (first.operation === "listTemplates" && first.query?.limit === "1"));
  return isCheck ? api.slice(1) : api;
}
