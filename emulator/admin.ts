/**
 * The emulator's own admin API, for tests and humans. Unsigned, answered only
 * to loopback clients, never subject to faults or the dialect, logged with
 * operation "admin". Answers use the platform's envelope too.
 *
 *   GET    /__emulator/health            liveness: {status: "ok", url}
 *   GET    /__emulator/requests          the request log (RequestLogEntry[]), oldest first
 *   DELETE /__emulator/requests          empties the request log
 *   GET    /__emulator/faults            installed faults with their remaining counts
 *   POST   /__emulator/faults            installs a fault: body is a FaultSpec (400 when invalid)
 *   DELETE /__emulator/faults            removes every fault
 *   GET    /__emulator/dialect           the dialect in force (Dialect)
 *   PUT    /__emulator/dialect           merges a partial Dialect into it; answers the result (400 when invalid)
 *   GET    /__emulator/misbehaviour      the misbehaviour switches in force (MisbehaviourSpec)
 *   PUT    /__emulator/misbehaviour      merges switches into them; answers the result (400 when invalid)
 *   DELETE /__emulator/misbehaviour      turns every switch off
 *   GET    /__emulator/state             {resource_groups, notebooks, training_jobs, templates}, wire-shaped
 *   POST   /__emulator/notebooks         creates notebooks at once: body is a SeedNotebooks; data {uuids}
 *   DELETE /__emulator/notebooks/{uuid}  removes a notebook out of band (404 when unknown)
 *   POST   /__emulator/notebooks/{uuid}/fail  its container fails: body {reason}; Failed until started again (404 when unknown)
 *   GET    /__emulator/connections       {open, peak, inFlight, peakInFlight}: connections and API requests at once
 *   DELETE /__emulator/connections       restarts the peaks from the current values
 *   GET    /__emulator/clock             the time notebooks change by: {now (ISO 8601 UTC), offset_ms}
 *   POST   /__emulator/clock             moves it forward: body {advance_ms: >= 0}; answers as GET (400 when invalid)
 */
import type { EmulatorClock } from "./clock";
import { ApiError, notFound } from "./errors";
import type { FaultRegistry } from "./faults";
import type { Misbehaviour } from "./misbehaviour";
import { groupToWire, notebookToWire, templateToWire } from "./handlers";
import type { Store } from "./state";
import type { Dialect, FaultSpec, RequestLogEntry, SeedNotebooks } from "./types";

/** The prefix of every admin route. */
export const ADMIN_PREFIX = "/__emulator";

/** What the admin routes act on. */
export interface AdminDeps {
  store: Store;
  faults: FaultRegistry;
  misbehaviour: Misbehaviour;
  log: RequestLogEntry[];
  url: () => string;
  clock: EmulatorClock;
  readyDelayMs: number;
  deleteNotebook: (uuid: string) => boolean;
  failNotebook: (uuid: string, reason: string) => boolean;
  seedNotebooks: (seed: SeedNotebooks) => string[];
  dialect: () => Dialect;
  setDialect: (patch: unknown) => Dialect;
  connections: { read: () => Record<string, number>; reset: () => void };
}

/** True for a client on this machine. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/** Runs `change`, turning its Error into a 400 naming what was wrong. */
function badRequestOnError<T>(change: () => T): T {
  try {
    return change();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, 400, (e as Error).message);
  }
}

/** Answers one admin request; throws ApiError for errors. */
export function handleAdmin(deps: AdminDeps, method: string, path: string, body: unknown): { data: unknown; counts: number } {
  const route = `${method} ${path.replace(/\/+$/, "")}`;
  const now = deps.clock.now();
  switch (route) {
    case "GET /__emulator/clock":
      return { data: clockView(deps.clock), counts: 0 };
    case "POST /__emulator/clock": {
      const advance = (body as { advance_ms?: unknown } | null)?.advance_ms;
      if (typeof advance !== "number") throw new ApiError(400, 400, "body must be {advance_ms: <milliseconds >= 0>}");
      badRequestOnError(() => deps.clock.advance(advance));
      return { data: clockView(deps.clock), counts: 0 };
    }
    case "GET /__emulator/connections":
      return { data: deps.connections.read(), counts: 0 };
    case "DELETE /__emulator/connections":
      deps.connections.reset();
      return { data: deps.connections.read(), counts: 0 };
    case "GET /__emulator/health":
      return { data: { status: "ok", url: deps.url() }, counts: 0 };
    case "GET /__emulator/requests":
      return { data: [...deps.log], counts: deps.log.length };
    case "DELETE /__emulator/requests":
      deps.log.length = 0;
      return { data: null, counts: 0 };
    case "GET /__emulator/faults": {
      const list = deps.faults.list();
      return { data: list, counts: list.length };
    }
    case "POST /__emulator/faults":
      badRequestOnError(() => deps.faults.add(body as FaultSpec));
      return { data: deps.faults.list(), counts: deps.faults.list().length };
    case "DELETE /__emulator/faults":
      deps.faults.clear();
      return { data: null, counts: 0 };
    case "GET /__emulator/misbehaviour":
      return { data: deps.misbehaviour.get(), counts: 0 };
    case "PUT /__emulator/misbehaviour":
      return { data: badRequestOnError(() => deps.misbehaviour.set(body)), counts: 0 };
    case "DELETE /__emulator/misbehaviour":
      deps.misbehaviour.clear();
      return { data: null, counts: 0 };
    case "GET /__emulator/dialect":
      return { data: deps.dialect(), counts: 0 };
    case "PUT /__emulator/dialect":
      return { data: badRequestOnError(() => deps.setDialect(body)), counts: 0 };
    case "POST /__emulator/notebooks": {
      const uuids = badRequestOnError(() => deps.seedNotebooks(body as SeedNotebooks));
      return { data: { uuids }, counts: uuids.length };
    }
    case "GET /__emulator/state": {
      deps.store.purgeExpired(now);
      const d = deps.store.data;
      const dialect = deps.dialect();
      return {
        data: {
          resource_groups: d.groups.map((g) => groupToWire(g, dialect)),
          notebooks: d.notebooks.map((nb) => notebookToWire(nb, now, deps.readyDelayMs, dialect)),
          training_jobs: d.jobs,
          templates: d.templates.map((t) => templateToWire(deps.store, t, dialect)),
        },
        counts: 0,
      };
    }
  }
  const fail = /^POST \/__emulator\/notebooks\/([^/]+)\/fail$/.exec(route);
  if (fail) {
    const reason = (body as { reason?: unknown } | null)?.reason;
    if (typeof reason !== "string" || reason === "") throw new ApiError(400, 400, "body must be {reason: <non-empty string>}");
    const uuid = badRequestOnError(() => decodeURIComponent(fail[1]!));
    if (!deps.failNotebook(uuid, reason)) throw notFound(`notebook '${uuid}'`);
    return { data: { uuid }, counts: 0 };
  }
  const del = /^DELETE \/__emulator\/notebooks\/([^/]+)$/.exec(route);
  if (del) {
    let uuid: string;
    try {
      uuid = decodeURIComponent(del[1]!);
    } catch {
      throw new ApiError(400, 400, `malformed notebook uuid '${del[1]}'`);
    }
    if (!deps.deleteNotebook(uuid)) throw notFound(`notebook '${uuid}'`);
    return { data: { uuid }, counts: 0 };
  }
  throw new ApiError(404, 404, `no admin route for ${method} ${path}`);
}

/** The clock as the admin API shows it. */
function clockView(clock: EmulatorClock): { now: string; offset_ms: number } {
  const now = clock.now();
  return { now: new Date(now).toISOString(), offset_ms: now - Date.now() };
}
