/**
 * What the platform's unknowns cost at scale: how many list
 * requests a refresh of 1,000 notebooks sends under each meaning of the list
 * totals (pages of at most 100, platform-api B5), and how many requests the
 * client adds in a process that meets every wrong first guess once.
 */
import { AicpClient } from "../client/client";
import { mapConcurrent } from "../client/paging";
import { configureFrom } from "../provider/context";
import * as notebook from "../provider/notebook";
import type { NotebookOutputs } from "../provider/notebook";
import { countByOperation, credentials, startEmulator, timed, type LoggedRequest } from "./lib";

const refreshed = 1000;
/** The engine's default parallelism: reads of a refresh come this many at a time. */
const parallelism = 8;

/** Refresh of 1,000 notebooks in the provider process: one read() each, as the engine calls them. */
export async function refreshAtScale(latencyMs: number) {
  const rows = [];
  for (const [totals, dialect] of [
    ["total_sum", "counts=page,totalSum=true"],
    ["counts is the total", "counts=total,totalSum=false"],
    ["counts is the page length", "counts=page,totalSum=false"],
  ] as const) {
    const emulator = await startEmulator(50, dialect);
    try {
      const uuids = (await emulator.admin<{ uuids: string[] }>("POST", "/notebooks", { namespace: credentials.userId, count: refreshed, namePrefix: "bench" }))
        .uuids;
      await emulator.admin("POST", "/faults", { kind: "latency", latencyMs });
      const config: Record<string, string> = {
        "aicp:baseUrl": emulator.url,
        "aicp:accessKeyId": credentials.accessKeyId,
        "aicp:secretAccessKey": credentials.secretAccessKey,
        "aicp:userId": credentials.userId,
        "aicp:zone": "xb3",
      };
      configureFrom((key) => config[key]);
      await emulator.admin("DELETE", "/requests");
      const props = (uuid: string, i: number) =>
        ({ namespace: credentials.userId, name: `bench-${String(i + 1).padStart(4, "0")}` }) as unknown as NotebookOutputs;
      const { result, ms } = await timed(() => mapConcurrent(uuids, parallelism, (uuid) => notebook.read(uuid, props(uuid, uuids.indexOf(uuid)))));
      const log = await emulator.admin<Array<LoggedRequest & { query?: Record<string, string> }>>("GET", "/requests");
      const lists = log.filter((r) => r.operation === "listNotebooks");
      rows.push({
        totals,
        kept: result.filter((r) => r.id !== "").length,
        listRequests: lists.length,
        largestPage: Math.max(...lists.map((r) => Number(r.query?.limit ?? 0))),
        requests: countByOperation(log),
        ms: Math.round(ms),
      });
    } finally {
      emulator.stop();
    }
  }
  return { notebooks: refreshed, latencyMs, rows };
}

/** One fresh client (a new process) meeting a platform where both first guesses are wrong, with reads and writes at once. */
export async function adaptationCost() {
  const emulator = await startEmulator(50, "prefixes=qai,signatureBody=body");
  const client = new AicpClient({ baseUrl: emulator.url, zone: "xb3", credentials });
  try {
    const body = (i: number) => ({
      charge_mode: "elastic" as const,
      duration: 3600,
      user_id: credentials.userId,
      namespace: credentials.userId,
      image: "jupyter:1",
      image_type: "official" as const,
      name: `adapt-${i}`,
      server_type: "jupyter" as const,
      replica_specs: { specs: "sku-1", custom_gpu: 1 },
    });
    await Promise.all([
      ...Array.from({ length: 10 }, () => client.listTemplates({ limit: 1 })),
      ...Array.from({ length: 5 }, (_, i) => client.createNotebook(body(i))),
    ]);
    const log = await emulator.admin<LoggedRequest[]>("GET", "/requests");
    const api = log.filter((r) => r.operation !== "admin");
    return {
      unknownsWrong: 2,
      requests: api.length,
      gatewayAnswers: api.filter((r) => r.status === 404).length,
      signatureRefusals: api.filter((r) => r.status === 401).length,
      extraRequests: client.dialect().extraRequests,
      learned: client.dialect(),
    };
  } finally {
    await client.close();
    emulator.stop();
  }
}
