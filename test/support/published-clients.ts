/**
 * What test/conformance/published-clients.test.ts needs around the platform's published Python clients: the
 * Python that runs them, published_clients.py's output, and the notebook and training job they look for, made
 * through the platform's documented operations (never through provider/). Kept apart so the test file holds the
 * setup it runs once and the cases.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { emulatorCredentials } from "./emulator";
import { signedRequest } from "./signed-request";

/** Not the MCP server's default zone (xb3), so a zone seen on the wire is the one configured. */
export const ZONE = "hb2";
export const NAMESPACE = emulatorCredentials.userId.toLowerCase();
const SCRIPT = join(__dirname, "../conformance/published_clients.py");
export const PYTHON = process.env.AICP_PYCLIENTS_PYTHON;
export const MISSING_PYTHON =
  "AICP_PYCLIENTS_PYTHON is not set: the published Python clients are not installed. " +
  "Run `bash scripts/pyclients.sh` (needs python3 3.10+ and PyPI) and export AICP_PYCLIENTS_PYTHON=<the path it prints>, " +
  "or run the suite through `npm test`, whose bootstrap does both.";

/** One line of published_clients.py's output. */
export interface CallResult {
  client: string;
  call: string;
  variant: string;
  expect: "success" | "failure" | "observed";
  request?: { method: string; path: string; query: string; body: string | null };
  requests_sent?: number;
  http_status: number | null;
  envelope: boolean;
  ret_code?: number;
  message?: string;
  counts?: number;
  items?: number;
  data_type?: string;
  uuids?: string[];
  names?: string[];
  server_types?: string[];
  client_error?: string;
  transport_error?: string;
  client_output?: string;
  body?: string | null;
}

export function runScript(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(PYTHON!, [SCRIPT, ...args], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`published_clients.py failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * Creates a notebook on the emulator at `url` through the platform's documented create operation (platform-api A4.2),
 * signed by test/support/signed-request.ts as the MCP server signs (never through provider/).
 */
export async function createNotebook(url: string, name: string): Promise<{ uuid: string; name: string }> {
  const answer = await signedRequest(url, {
    accessKeyId: emulatorCredentials.accessKeyId,
    secretAccessKey: emulatorCredentials.secretAccessKey,
    method: "POST",
    path: `/aicp/notebooks/namespaces/${NAMESPACE}/create`,
    query: { zone: ZONE },
    body: {
      charge_mode: "elastic",
      duration: 3600,
      user_id: emulatorCredentials.userId,
      namespace: NAMESPACE,
      image: "jupyter:1",
      image_type: "official",
      name,
      server_type: "jupyter",
      replica_specs: { replicas: 1, custom_cpu: 2, custom_memory: 4 },
    },
  });
  const data = (answer.json as { data?: unknown } | undefined)?.data;
  const item = (Array.isArray(data) ? data[0] : data) as { uuid?: unknown } | undefined;
  if (answer.status !== 200 || typeof item?.uuid !== "string")
    throw new Error(`create notebook '${name}' failed: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
  return { uuid: item.uuid, name };
}

/** Creates a training job on the emulator at `url` through the documented create operation (platform-api B1). */
export async function createTrainingJob(url: string, name: string): Promise<void> {
  const answer = await signedRequest(url, {
    accessKeyId: emulatorCredentials.accessKeyId,
    secretAccessKey: emulatorCredentials.secretAccessKey,
    method: "POST",
    path: `/aicp/trains/namespaces/${NAMESPACE}/create`,
    query: { zone: ZONE },
    body: {
      charge_mode: "elastic",
      duration: 3600,
      name,
      endpoint: "pytorchjobs",
      command: "python train.py",
      image: "pytorch/pytorch:2.3",
      image_type: "official",
      replica_specs: [{ replica_type: "Master", replicas: 1 }],
    },
  });
  if (answer.status !== 200 || (answer.json as { ret_code?: unknown } | undefined)?.ret_code !== 0) {
    throw new Error(`create training job '${name}' failed: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
  }
}

/** A one-line account of a call, for assertion messages. */
export function describeCall(r: CallResult): string {
  return (
    `${r.client} ${r.call} (${r.variant}): sent ${r.request?.method} ${r.request?.path}?${r.request?.query}` +
    `${r.request?.body ? ` body ${r.request.body}` : ""}; got HTTP ${r.http_status}, envelope ${r.envelope}, ret_code ${r.ret_code}` +
    `${r.client_error ? `; client error ${r.client_error}` : ""}${r.body ? `; body ${r.body.slice(0, 600)}` : ""}`
  );
}
