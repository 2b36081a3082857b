/**
 * Conformance with the platform's own published clients:
 * the operator's SDK (PyPI `qingcloud-sdk`) and the MCP server (PyPI
 * `coreshub-mcp-server`) run UNCHANGED, but for base URL and keys, against an
 * in-process emulator; test/conformance/published_clients.py drives them and
 * prints one JSON object per call. Their calls are the oracle: nobody here
 * wrote them (docs/platform-api.md B6).
 *
 * The Python environment comes from `bash scripts/pyclients.sh` (pinned
 * versions, a venv under .cache/pyclients); scripts/bootstrap.sh runs it and
 * exports AICP_PYCLIENTS_PYTHON, so `npm test` and `.ci/run` have it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import {
  createNotebook,
  createTrainingJob,
  describeCall,
  MISSING_PYTHON,
  NAMESPACE,
  PYTHON,
  runScript,
  ZONE,
  type CallResult,
} from "../support/published-clients";

/** The pinned versions scripts/pyclients.sh installs. */
const PINNED = { mcp: "coreshub-mcp-server 0.3.0", sdk: "qingcloud-sdk 1.2.16" } as const;

let emulator: Emulator | undefined;
let results: CallResult[] = [];
/** The same calls signed with a wrong secret key. */
let wrongKeyResults: CallResult[] = [];
/** The emulator's request log right after the first run. */
let logOfRun: ReturnType<Emulator["requests"]> = [];
let scriptError: string | undefined;
let notebook = { uuid: "", name: "" };
let otherNotebook = { uuid: "", name: "" };
const trainName = `conformance-train-${Date.now().toString(36)}`;
let statusBefore: unknown;

function notebookStatus(uuid: string): unknown {
  return emulator!.listNotebooks().find((nb) => nb.uuid === uuid)?.status;
}

/** The results, or a failure that says why there are none. */
function calls(): CallResult[] {
  if (!PYTHON) throw new Error(MISSING_PYTHON);
  if (scriptError) throw new Error(scriptError);
  return results;
}

function find(call: string, variantStart: string): CallResult {
  const hit = calls().find((r) => r.call === call && r.variant.startsWith(variantStart));
  if (!hit)
    throw new Error(
      `published_clients.py printed no result for ${call} (${variantStart}); it printed: ${calls()
        .map((r) => `${r.call} (${r.variant})`)
        .join("; ")}`,
    );
  return hit;
}

beforeAll(async () => {
  if (!PYTHON) return;
  emulator = await startTestEmulator();
  try {
    notebook = await createNotebook(emulator.url, `conformance-nb-${Date.now().toString(36)}`);
    otherNotebook = await createNotebook(emulator.url, "unrelated-notebook");
    await createTrainingJob(emulator.url, trainName);
    // Running, so that "still Running after the SDK's POST-as-GET" means "not stopped".
    for (let i = 0; i < 200 && notebookStatus(notebook.uuid) !== "Running"; i++) await new Promise((r) => setTimeout(r, 50));
    statusBefore = notebookStatus(notebook.uuid);
    emulator.clearRequests();
    const args = (secret: string): string[] => [
      "--url",
      emulator!.url,
      "--access-key",
      emulatorCredentials.accessKeyId,
      "--secret-key",
      secret,
      "--user-id",
      emulatorCredentials.userId,
      "--zone",
      ZONE,
      "--notebook-uuid",
      notebook.uuid,
      "--notebook-name",
      notebook.name,
      "--train-name",
      trainName,
    ];
    const parse = (stdout: string): CallResult[] =>
      stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as CallResult);
    results = parse(await runScript(args(emulatorCredentials.secretAccessKey)));
    logOfRun = emulator.requests().filter((e) => e.operation !== "admin");
    wrongKeyResults = parse(await runScript(args(`${emulatorCredentials.secretAccessKey}-wrong`)));
    // For a human reading a CI log or debugging a dialect: every call, one line each.
    if (process.env.AICP_CONFORMANCE_VERBOSE) {
      for (const r of results) console.log(JSON.stringify(r));
      for (const r of wrongKeyResults) console.log(JSON.stringify({ ...r, run: "wrong secret key" }));
    }
  } catch (e) {
    scriptError = (e as Error).message;
  }
}, 150_000);

afterAll(async () => {
  await emulator?.close();
});

describe("the platform's published Python clients against the emulator", () => {
  it("are installed at the pinned versions (AICP_PYCLIENTS_PYTHON)", () => {
    expect(PYTHON, MISSING_PYTHON).toBeTruthy();
    const clients = new Set(calls().map((r) => r.client));
    expect([...clients].sort()).toEqual([PINNED.mcp, PINNED.sdk].sort());
  });

  it("every in-scope call answers HTTP 200 with the platform envelope and ret_code 0", () => {
    const inScope = calls().filter((r) => r.expect === "success");
    // 4 MCP tool calls and 2 SDK get_trains calls (see the header of published_clients.py).
    expect(inScope.map((r) => `${r.client.split(" ")[0]} ${r.call}`)).toEqual([
      "coreshub-mcp-server get_container_info",
      "coreshub-mcp-server get_container_info",
      "coreshub-mcp-server get_ssh_info",
      "coreshub-mcp-server get_distributed_training",
      "qingcloud-sdk get_trains",
      "qingcloud-sdk get_trains",
    ]);
    const failures = inScope.filter((r) => !(r.http_status === 200 && r.envelope && r.ret_code === 0 && !r.client_error));
    expect(failures.map(describeCall)).toEqual([]);
  });

  it("the same calls signed with a wrong secret key are all refused, so the 200s above passed a real signature check", () => {
    calls();
    const wrong = wrongKeyResults.filter((r) => r.expect !== "failure");
    expect(wrong.length).toBe(calls().filter((r) => r.expect !== "failure").length);
    const accepted = wrong.filter((r) => r.http_status === 200 && r.envelope && r.ret_code === 0);
    expect(accepted.map(describeCall)).toEqual([]);
  });

  it("get_container_info lists the notebook with and without the name filter, and the filter excludes others", () => {
    const all = find("get_container_info", "without name filter");
    const filtered = find("get_container_info", "name filter");
    expect(all.uuids, describeCall(all)).toContain(notebook.uuid);
    expect(all.uuids, describeCall(all)).toContain(otherNotebook.uuid);
    expect(filtered.uuids, describeCall(filtered)).toContain(notebook.uuid);
    expect(filtered.uuids, describeCall(filtered)).not.toContain(otherNotebook.uuid);
    // The docs call the name filter a partial match (platform-api B1).
    for (const name of filtered.names ?? []) expect(name).toContain(notebook.name);
  });

  it("get_ssh_info returns the notebook's servers", () => {
    const ssh = find("get_ssh_info", "default services");
    expect(ssh.request?.path).toBe(`/aicp/notebooks/namespaces/${NAMESPACE}/notebooks/${notebook.uuid}/servers`);
    expect(ssh.data_type, describeCall(ssh)).toBe("array");
    expect(ssh.items ?? 0, describeCall(ssh)).toBeGreaterThan(0);
    expect(ssh.server_types?.length, describeCall(ssh)).toBe(ssh.items);
  });

  it("the training job appears in the MCP server's and the SDK's training listings", () => {
    for (const r of [find("get_distributed_training", "start_at/end_at"), find("get_trains", "user's namespace"), find("get_trains", "reverse=False")]) {
      expect(r.names, describeCall(r)).toContain(trainName);
    }
  });

  it("the emulator's request log shows the zone each client sent", () => {
    const judged = calls().filter((r) => r.expect === "success");
    const log = logOfRun;
    // One request per call, in the order the script made them.
    expect(log.length).toBe(calls().reduce((n, r) => n + (r.requests_sent ?? 0), 0));
    const byCall = calls().map((r, i) => ({ r, entry: log[i] }));
    for (const { r, entry } of byCall.filter(({ r }) => judged.includes(r))) {
      expect(r.request?.query, describeCall(r)).toMatch(new RegExp(`(^|&)zone=${ZONE}(&|$)`));
      expect(entry?.method).toBe(r.request?.method);
      expect(entry?.path).toBe(r.request?.path);
      const query = (entry as { query?: Record<string, string | string[]> } | undefined)?.query;
      expect(query, `the emulator's log entry for ${r.client} ${r.call} records no query (RequestLogEntry.query)`).toBeDefined();
      expect(query?.zone, `${r.client} ${r.call}`).toBe(ZONE);
    }
    const clientsSeen = new Set(
      byCall.filter(({ r, entry }) => judged.includes(r) && (entry as { query?: Record<string, unknown> })?.query?.zone === ZONE).map(({ r }) => r.client),
    );
    expect([...clientsSeen].sort()).toEqual([PINNED.mcp, PINNED.sdk].sort());
  });

  it("the SDK's send_request POST goes out as a GET with a JSON body, which no server can serve: nothing is stopped", () => {
    // qingcloud/qai/connection.py signs method "POST" but calls requests.get(..., json=body).
    // A server routing on the method finds no GET route for .../notebooks/stop; one that
    // verified the signature against the method received ("GET") would not match the
    // "POST" it was signed with. Either way it cannot work, on the platform or anywhere.
    // What can be checked: it was really sent that way, it was not answered as a
    // success, and the notebook was not stopped.
    const post = find("send_request", "POST stop notebooks");
    expect(post.expect).toBe("failure");
    expect(post.request?.method).toBe("GET");
    expect(post.request?.path).toBe(`/aicp/notebooks/namespaces/${NAMESPACE}/notebooks/stop`);
    expect(JSON.parse(post.request?.body ?? "null")).toEqual({ uuids: [notebook.uuid], save_image: false });
    expect(post.http_status === 200 && post.envelope && post.ret_code === 0, describeCall(post)).toBe(false);
    expect(statusBefore).toBe("Running");
    expect(notebookStatus(notebook.uuid)).toBe(statusBefore);
  });
});
