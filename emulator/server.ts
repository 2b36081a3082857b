/**
 * The HTTP server: admin routes, routing, faults, the signature check, body
 * parsing and the envelope around every handler's answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ADMIN_PREFIX, handleAdmin, isLoopback } from "./admin";
import { type Credential, DEFAULT_CREDENTIAL, verifySignature } from "./auth";
import { ApiError, envelope } from "./errors";
import { FaultRegistry } from "./faults";
import { groupToWire, handlers, notebookToWire } from "./handlers";
import { groupPairs, parseQuery } from "./query";
import { matchRoute } from "./router";
import { Store } from "./state";
import type { Emulator, EmulatorOptions, FaultSpec, RequestLogEntry } from "./types";
import { requestId, sleep } from "./util";

/** Largest accepted body; a test growing the catalogue sends a few hundred KiB at most. */
const MAX_BODY = 16 * 1024 * 1024;
/** The request log keeps this many entries, dropping the oldest. */
const MAX_LOG = 20_000;

const MALFORMED_BODY = "<html><body>502 Bad Gateway</body></html>";

/** Starts an emulator; resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const credentials: Credential[] = (options.credentials ?? [DEFAULT_CREDENTIAL]).map((c) => ({
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    userId: c.userId ?? DEFAULT_CREDENTIAL.userId,
  }));
  const readyDelayMs = options.notebookReadyDelayMs ?? 1000;
  const store = new Store(options.stateFile, [...new Set(credentials.map((c) => c.userId))]);
  const faults = new FaultRegistry();
  const log: RequestLogEntry[] = [];
  const sockets = new Set<Socket>();
  // For benchmarks: how many connections and API requests the client held open at once.
  const load = { peakConnections: 0, inFlight: 0, peakInFlight: 0 };
  const host = options.host ?? "127.0.0.1";
  let url = "";

  const deleteNotebook = (uuid: string): boolean => {
    store.purgeExpired(Date.now());
    const before = store.data.notebooks.length;
    store.mutate((d) => (d.notebooks = d.notebooks.filter((n) => n.uuid !== uuid)));
    return store.data.notebooks.length < before;
  };

  const record = (entry: RequestLogEntry, started: number): void => {
    log.push(entry);
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
    options.log?.(
      `${entry.method} ${entry.path} ${entry.operation ?? "-"} -> ${entry.status === 0 ? "dropped" : entry.status}` +
        `${entry.retCode === undefined ? "" : ` ret_code=${entry.retCode}`}${entry.requestId ? ` ${entry.requestId}` : ""} (${Date.now() - started} ms)`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? "" : rawUrl.slice(q + 1);
    const reqId = requestId();
    const entry: RequestLogEntry = { time: new Date(started).toISOString(), method, path, status: 0 };
    let user = "";

    const send = (status: number, retCode: number, message: string, data: unknown, counts: number, headers: Record<string, string> = {}): void => {
      const body = JSON.stringify(envelope(retCode, message, data, counts, reqId, user));
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-request-id": reqId, ...headers });
      res.end(body);
      record({ ...entry, status, retCode, requestId: reqId }, started);
    };
    const sendError = (e: unknown): void => {
      if (e instanceof ApiError) send(e.status, e.retCode, e.message, null, 0, e.headers);
      else send(500, 500, `internal emulator error: ${(e as Error)?.message ?? String(e)}`, null, 0);
    };

    try {
      const body = await readBody(req);
      if (path === ADMIN_PREFIX || path.startsWith(ADMIN_PREFIX + "/")) {
        entry.operation = "admin";
        if (!isLoopback(req.socket.remoteAddress)) throw new ApiError(403, 403, "the admin API answers loopback clients only");
        const parsed = body.length === 0 ? undefined : parseJson(body);
        const connections = {
          read: () => ({ open: sockets.size, peak: load.peakConnections, inFlight: load.inFlight, peakInFlight: load.peakInFlight }),
          reset: () => Object.assign(load, { peakConnections: sockets.size, peakInFlight: load.inFlight }),
        };
        const result = handleAdmin({ store, faults, log, url: () => url, readyDelayMs, deleteNotebook, connections }, method, path, parsed);
        send(200, 0, "success", result.data, result.counts);
        return;
      }

      load.inFlight++;
      load.peakInFlight = Math.max(load.peakInFlight, load.inFlight);
      res.on("close", () => load.inFlight--);
      store.purgeExpired(Date.now());
      const match = matchRoute(method, path);
      entry.operation = match.operation;
      const pairs = parseQuery(rawQuery);
      // Known before the check only to fill meta.X_REQUEST_USER of an injected fault.
      const keyId = pairs.find(([k]) => k === "access_key_id")?.[1];
      user = credentials.find((c) => c.accessKeyId === keyId)?.userId ?? "";

      const fault = faults.decide(match.operation);
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      if (fault.terminal) {
        applyFault(fault.terminal);
        return;
      }

      user = "";
      const credential = verifySignature(credentials, method, path, pairs, body);
      user = credential.userId;
      const query = groupPairs(pairs.filter(([k]) => k !== "access_key_id" && k !== "signature"));
      const parsed = body.length === 0 ? undefined : parseJson(body);
      const result = handlers[match.operation]({ store, params: match.params, query, body: parsed, user: credential, now: Date.now(), readyDelayMs });
      send(200, 0, "success", result.data, result.counts);
    } catch (e) {
      sendError(e);
    }

    function applyFault(f: FaultSpec): void {
      switch (f.kind) {
        case "drop":
          record({ ...entry, status: 0 }, started);
          req.socket.destroy();
          return;
        case "malformed":
          res.writeHead(200, { "content-type": "text/html" });
          res.end(MALFORMED_BODY);
          record({ ...entry, status: 200 }, started);
          return;
        case "http": {
          const status = f.status ?? 500;
          const headers: Record<string, string> = f.retryAfterSeconds === undefined ? {} : { "retry-after": String(f.retryAfterSeconds) };
          send(status, status, f.message ?? `injected fault: HTTP ${status}`, null, 0, headers);
          return;
        }
        case "retCode":
          send(200, f.retCode ?? 5000, f.message ?? `injected fault: ret_code ${f.retCode}`, null, 0);
          return;
        default:
          // Latency faults never end up here; treating an unknown kind as a 500 keeps the request answered.
          send(500, 500, `unknown fault kind ${String(f.kind)}`, null, 0);
      }
    }
  };

  const server = createServer((req, res) => void handle(req, res));
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
    requests: () => log.map((e) => ({ ...e })),
    clearRequests: () => void (log.length = 0),
    addFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    deleteNotebook,
    listNotebooks: () => {
      const now = Date.now();
      store.purgeExpired(now);
      return store.data.notebooks.map((nb) => notebookToWire(nb, now, readyDelayMs));
    },
    listResourceGroups: () => store.data.groups.map(groupToWire),
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new ApiError(413, 413, `request body is larger than ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (e) {
    throw new ApiError(400, 400, `invalid request body: not valid JSON (${(e as Error).message})`);
  }
}
