/**
 * Starts the emulator: its state, faults, dialect and request log, the HTTP
 * server on loopback, and the in-process handle tests use.
 */
import { createServer } from "node:http";
import type { Socket } from "node:net";
import type { AdminDeps } from "./admin";
import { EmulatorClock } from "./clock";
import { DEFAULT_DIALECT, DEFAULT_ZONES, mergeDialect } from "./dialect";
import { FaultRegistry } from "./faults";
import { Misbehaviour } from "./misbehaviour";
import { currentRunMs } from "./handlers/notebook-wire";
import { groupToWire, notebookToWire } from "./handlers";
import { requestListener } from "./http";
import { seedNotebooks } from "./seed";
import { type Credential, DEFAULT_CREDENTIAL } from "./signature";
import { Store } from "./state";
import type { Dialect, Emulator, EmulatorOptions, RequestLogEntry, SeedNotebooks } from "./types";

/** The request log keeps this many entries, dropping the oldest. */
const MAX_LOG = 20_000;

/** Starts an emulator; resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const credentials: Credential[] = (options.credentials ?? [DEFAULT_CREDENTIAL]).map((c) => ({
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    userId: c.userId ?? DEFAULT_CREDENTIAL.userId,
  }));
  const readyDelayMs = options.notebookReadyDelayMs ?? 1000;
  const clock = options.clock ?? new EmulatorClock();
  const zones = [...(options.zones ?? DEFAULT_ZONES)];
  let dialect: Dialect = mergeDialect(DEFAULT_DIALECT, options.dialect ?? {});
  const store = new Store(options.stateFile, [...new Set(credentials.map((c) => c.userId))]);
  const faults = new FaultRegistry();
  const misbehaviour = new Misbehaviour();
  const log: RequestLogEntry[] = [];
  const sockets = new Set<Socket>();
  // For benchmarks: how many connections and API requests the client held open at once.
  const load = { peakConnections: 0, inFlight: 0, peakInFlight: 0 };
  const host = options.host ?? "127.0.0.1";
  let url = "";

  const deleteNotebook = (uuid: string): boolean => {
    store.purgeExpired(clock.now());
    const before = store.data.notebooks.length;
    store.mutate((d) => (d.notebooks = d.notebooks.filter((n) => n.uuid !== uuid)));
    return store.data.notebooks.length < before;
  };
  const failNotebook = (uuid: string, reason: string): boolean => {
    const nb = store.data.notebooks.find((n) => n.uuid === uuid);
    if (!nb) return false;
    store.mutate(() => {
      // The time it ran before failing stays counted (running_time), as a platform's accounting would.
      nb.run_ms_before += currentRunMs(nb, clock.now(), readyDelayMs);
      nb.failed_reason = reason;
    });
    return true;
  };
  const seed = (spec: SeedNotebooks): string[] => seedNotebooks(store, credentials, readyDelayMs, spec, clock.now());
  const currentDialect = (): Dialect => structuredClone(dialect);
  const setDialect = (patch: unknown): Dialect => {
    dialect = mergeDialect(dialect, patch);
    return currentDialect();
  };

  const record = (entry: RequestLogEntry, started: number): void => {
    log.push(entry);
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
    options.log?.(
      `${entry.method} ${entry.path} ${entry.operation ?? "-"} -> ${entry.status === 0 ? "dropped" : entry.status}` +
        `${entry.retCode === undefined ? "" : ` ret_code=${entry.retCode}`}${entry.requestId ? ` ${entry.requestId}` : ""} (${Date.now() - started} ms)`,
    );
  };
  const admin: AdminDeps = {
    store,
    faults,
    misbehaviour,
    log,
    url: () => url,
    clock,
    readyDelayMs,
    deleteNotebook,
    failNotebook,
    seedNotebooks: seed,
    dialect: currentDialect,
    setDialect,
    connections: {
      read: () => ({ open: sockets.size, peak: load.peakConnections, inFlight: load.inFlight, peakInFlight: load.peakInFlight }),
      reset: () => Object.assign(load, { peakConnections: sockets.size, peakInFlight: load.inFlight }),
    },
  };
  const listener = requestListener({ store, faults, misbehaviour, credentials, zones, clock, readyDelayMs, dialect: () => dialect, admin, record, load });

  const server = createServer((req, res) => void listener(req, res));
  server.on("connection", (socket) => {
    sockets.add(socket);
    load.peakConnections = Math.max(load.peakConnections, sockets.size);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 0, host, exclusive: false }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    requests: () => log.map((e) => structuredClone(e)),
    clearRequests: () => void (log.length = 0),
    addFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    misbehave: (patch) => misbehaviour.set(patch),
    clearMisbehaviour: () => misbehaviour.clear(),
    dialect: currentDialect,
    setDialect: (partial) => setDialect(partial),
    seedNotebooks: seed,
    deleteNotebook,
    failNotebook,
    listNotebooks: () => {
      const now = clock.now();
      store.purgeExpired(now);
      return store.data.notebooks.map((nb) => notebookToWire(nb, now, readyDelayMs, dialect));
    },
    listResourceGroups: () => store.data.groups.map((g) => groupToWire(g, dialect)),
    clock,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
      // An in-process client (a test's fetch pool) learns that its kept-alive sockets
      // are gone only when its side of the close has been processed; without this
      // pause a request right after a restart on the same port can pick a dead socket.
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}
