/**
 * One HTTP request, start to end: admin routes, then for the API routing (the
 * dialect's prefixes and absent operations), faults, the signature check, the
 * common parameters, tenancy, the body, the handler, and the envelope around
 * its answer. The body is read only once nothing else can refuse the request
 * (under the `body` signature convention, once its key is known, and at most
 * the limit), so an unsigned or foreign request costs nothing whatever body it
 * announces (./body.ts).
 */
import type { EmulatorClock } from "./clock";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ADMIN_PREFIX, type AdminDeps, handleAdmin, isLoopback } from "./admin";
import { MAX_BODY_BYTES, announcesBody, readBody } from "./body";
import { checkNamespace, checkZone } from "./common-params";
import { ApiError, PlainAnswer, envelope } from "./errors";
import type { FaultRegistry } from "./faults";
import type { Misbehaviour } from "./misbehaviour";
import { type HandlerContext, type HandlerResult, handlers } from "./handlers";
import { groupPairs, parseQuery } from "./query";
import { matchRoute } from "./router";
import { type Credential, signingKey, verifySignature } from "./signature";
import type { Store } from "./state";
import type { Dialect, FaultSpec, RequestLogEntry } from "./types";
import { requestId, sleep } from "./util";

const MALFORMED_BODY = "<html><body>502 Bad Gateway</body></html>";

/** What a request needs from the running emulator. */
export interface HttpDeps {
  store: Store;
  faults: FaultRegistry;
  misbehaviour: Misbehaviour;
  credentials: readonly Credential[];
  zones: readonly string[];
  /** The time notebooks change by (clock.ts). */
  clock: EmulatorClock;
  readyDelayMs: number;
  dialect: () => Dialect;
  /** The admin API's dependencies. */
  admin: AdminDeps;
  /** Adds an entry to the request log; `started` is the arrival time in ms. */
  record: (entry: RequestLogEntry, started: number) => void;
  /** API requests in flight, for the benchmarks' peak figures. */
  load: { inFlight: number; peakInFlight: number };
}

/** Builds the node:http request listener. */
export function requestListener(deps: HttpDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? "" : rawUrl.slice(q + 1);
    const reqId = requestId();
    const header = (name: string) => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : undefined);
    const entry: RequestLogEntry = {
      time: new Date(started).toISOString(),
      method,
      path,
      status: 0,
      bodyBytes: 0,
      userAgent: header("user-agent"),
      channel: header("channel"),
    };
    const body = (): Promise<Buffer> => readBody(req, MAX_BODY_BYTES, (bytes) => (entry.bodyBytes = bytes));
    let user = "";
    let dialect: Dialect | undefined;
    // The request body once read; an echoing error answer repeats it.
    let bytes: Buffer = Buffer.alloc(0);
    // A latency fault's delay not yet served: it holds whatever answer the request gets.
    let delay = 0;
    const serveDelay = async (): Promise<void> => {
      const ms = delay;
      delay = 0;
      if (ms > 0) await sleep(ms);
    };

    const send = (status: number, retCode: number, message: string, result: HandlerResult, headers: Record<string, string> = {}): void => {
      const body: Record<string, unknown> = { ...envelope(retCode, message, result.data, result.counts, reqId, user) };
      if (result.totalSum !== undefined && dialect?.totalSum) body.total_sum = result.totalSum;
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-request-id": reqId, ...headers });
      res.end(JSON.stringify(body));
      deps.record({ ...entry, status, retCode, requestId: reqId }, started);
    };
    const sendError = (e: unknown): void => {
      if (e instanceof PlainAnswer) {
        res.writeHead(e.status, { "content-type": e.contentType });
        res.end(e.body);
        deps.record({ ...entry, status: e.status }, started);
      } else if (e instanceof ApiError) {
        send(e.status, e.retCode, deps.misbehaviour.echo(e.message, rawUrl, bytes), { data: null, counts: 0 }, e.headers);
      } else {
        send(500, 500, `internal emulator error: ${(e as Error)?.message ?? String(e)}`, { data: null, counts: 0 });
      }
    };
    const applyFault = (f: FaultSpec): void => {
      switch (f.kind) {
        case "drop":
          deps.record({ ...entry, status: 0 }, started);
          req.socket.destroy();
          return;
        case "malformed":
          res.writeHead(200, { "content-type": "text/html" });
          res.end(MALFORMED_BODY);
          deps.record({ ...entry, status: 200 }, started);
          return;
        case "http": {
          const status = f.status ?? 500;
          const headers: Record<string, string> = f.retryAfterSeconds === undefined ? {} : { "retry-after": String(f.retryAfterSeconds) };
          send(status, status, f.message ?? `injected fault: HTTP ${status}`, { data: null, counts: 0 }, headers);
          return;
        }
        case "retCode":
          send(200, f.retCode ?? 5000, f.message ?? `injected fault: ret_code ${f.retCode}`, { data: null, counts: 0 });
          return;
        default:
          // Latency faults never end up here; treating an unknown kind as a 500 keeps the request answered.
          send(500, 500, `unknown fault kind ${String(f.kind)}`, { data: null, counts: 0 });
      }
    };

    try {
      if (path === ADMIN_PREFIX || path.startsWith(ADMIN_PREFIX + "/")) {
        entry.operation = "admin";
        if (!isLoopback(req.socket.remoteAddress)) throw new ApiError(403, 403, "the admin API answers loopback clients only");
        const text = await body();
        const parsed = text.length === 0 ? undefined : parseJson(text);
        send(200, 0, "success", handleAdmin(deps.admin, method, path, parsed));
        return;
      }

      deps.load.inFlight++;
      deps.load.peakInFlight = Math.max(deps.load.peakInFlight, deps.load.inFlight);
      res.on("close", () => deps.load.inFlight--);
      deps.store.purgeExpired(deps.clock.now());
      // One dialect for the whole request, even if a test switches it meanwhile.
      dialect = structuredClone(deps.dialect());
      const match = matchRoute(method, path, dialect);
      entry.operation = match.operation;
      const pairs = parseQuery(rawQuery);
      // Known before the check only to fill meta.X_REQUEST_USER of an injected fault.
      const keyId = pairs.find((p) => p.key === "access_key_id")?.value;
      user = deps.credentials.find((c) => c.accessKeyId === keyId)?.userId ?? "";

      const fault = deps.faults.decide(match.operation);
      delay = fault.latencyMs;
      if (fault.terminal) {
        await serveDelay();
        applyFault(fault.terminal);
        return;
      }

      user = "";
      // The body is part of the string to sign only under the `body` convention (platform-api B4):
      // there it is read first, once the query names a known key; otherwise after every check.
      const signedBody = dialect.signatureBody === "body" && announcesBody(req);
      if (signedBody) {
        signingKey(deps.credentials, pairs);
        bytes = await body();
      }
      const verified = verifySignature(deps.credentials, { method, rawPath: path, pairs, body: bytes }, dialect.signatureBody);
      user = verified.credential.userId;
      entry.auth = verified.variant;
      const query = groupPairs(pairs.filter((p) => p.key !== "access_key_id" && p.key !== "signature"));
      entry.query = query;
      checkZone(query, dialect, deps.zones);
      checkNamespace(match.params, verified.credential, method);
      if (!signedBody && announcesBody(req)) bytes = await body();
      // After the body, so a client that gives up during the delay still has its request handled, as on
      // a slow platform (a create whose answer was lost).
      await serveDelay();
      const ctx: HandlerContext = {
        store: deps.store,
        params: match.params,
        query,
        body: bytes.length === 0 ? undefined : parseJson(bytes),
        user: verified.credential,
        now: deps.clock.now(),
        readyDelayMs: deps.readyDelayMs,
        dialect,
        consumed: new Set(["zone"]),
        misbehaviour: deps.misbehaviour,
      };
      let result: HandlerResult;
      try {
        result = handlers[match.operation](ctx);
      } finally {
        entry.ignoredParams = Object.keys(query).filter((name) => !ctx.consumed.has(name));
      }
      send(200, 0, "success", result);
    } catch (e) {
      await serveDelay();
      sendError(e);
    }
  };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (e) {
    throw new ApiError(400, 400, `invalid request body: not valid JSON (${(e as Error).message})`);
  }
}
