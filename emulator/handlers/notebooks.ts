/** Notebooks: create (spec 4.2) and the documented extra operations (platform notes §1). */
import { randomBytes } from "node:crypto";
import {
  changeImageRequest,
  createNotebookRequest,
  listNotebooksQuery,
  setDeleteTimeRequest,
  setStopTimeRequest,
  startNotebooksRequest,
  stopNotebooksRequest,
} from "../../provider/client/wire";
import { ApiError, notFound } from "../errors";
import type { NotebookRecord } from "../records";
import { normaliseWireTime, page, parseWireTime, randomId } from "../util";
import { type Handler, type HandlerContext, bodyOf, compareValues, queryOf } from "./context";
import { buildReplicaSpecs, buildVolumeSpecs } from "./notebook-specs";
import { currentRunMs, notebookStatus, notebookToWire } from "./notebook-wire";

function wire(ctx: HandlerContext, nb: NotebookRecord): Record<string, unknown> {
  return notebookToWire(nb, ctx.now, ctx.readyDelayMs);
}

function find(ctx: HandlerContext, uuid: string): NotebookRecord {
  const nb = ctx.store.data.notebooks.find((n) => n.uuid === uuid && n.namespace === ctx.params.namespace);
  if (!nb) throw notFound(`notebook '${uuid}' in namespace '${ctx.params.namespace}'`);
  return nb;
}

/** Starts (or restarts) the Pending -> Running clock, keeping the running time so far. */
function restart(ctx: HandlerContext, nb: NotebookRecord): void {
  nb.run_ms_before += currentRunMs(nb, ctx.now, ctx.readyDelayMs);
  nb.started_ms = ctx.now;
  nb.stopped = false;
  nb.updated_ms = ctx.now;
}

/** POST /notebooks/namespaces/{namespace}/create: data is a one-element array, counts 0 (spec part 1). */
export const createNotebook: Handler = (ctx) => {
  const body = bodyOf(createNotebookRequest, ctx);
  if (body.namespace !== ctx.params.namespace) {
    throw new ApiError(400, 400, `invalid request body: namespace: '${body.namespace}' differs from the path's namespace '${ctx.params.namespace}'`);
  }
  const uuid = randomId("nb-");
  const nb: NotebookRecord = {
    uuid,
    namespace: body.namespace,
    name: body.name,
    user_id: body.user_id,
    root_user_id: body.root_user_id ?? body.user_id,
    image: body.image,
    image_type: body.image_type,
    server_type: body.server_type,
    charge_mode: body.charge_mode,
    duration: body.duration,
    envs: body.envs ?? [],
    stop_time: normaliseWireTime(body.stop_time),
    auto_delete_time: normaliseWireTime(body.auto_delete_time),
    pip: body.pip ?? "",
    conda: body.conda ?? "",
    apt: body.apt ?? "",
    custom_first: body.custom_first ?? null,
    custom_second: body.custom_second ?? null,
    replica_specs: buildReplicaSpecs(ctx, body.replica_specs, uuid, "replica_specs", ctx.store.nextRecordId()),
    volume_specs: buildVolumeSpecs(ctx, body.volume_specs ?? [], uuid, body.user_id),
    created_ms: ctx.now,
    updated_ms: ctx.now,
    started_ms: ctx.now,
    stopped: false,
    run_ms_before: 0,
    password: randomBytes(9).toString("base64url"),
  };
  ctx.store.mutate((d) => d.notebooks.push(nb));
  return { data: [wire(ctx, nb)], counts: 0 };
};

const NOTEBOOK_ORDER = new Set(["created_at", "updated_at", "name", "status", "uuid"]);

/** GET /notebooks/namespaces/{namespace}/notebooks: counts is the total, so callers can page. */
export const listNotebooks: Handler = (ctx) => {
  const q = queryOf(listNotebooksQuery, ctx);
  const orderBy = q.order_by ?? "created_at";
  if (!NOTEBOOK_ORDER.has(orderBy)) {
    throw new ApiError(400, 400, `invalid request query: order_by: cannot sort by '${orderBy}'; use one of ${[...NOTEBOOK_ORDER].join(", ")}`);
  }
  const name = q.name?.toLowerCase();
  const statuses = q.status && q.status.length > 0 ? new Set(q.status.map((s) => s.toLowerCase())) : undefined;
  const from = q.start_at ? parseWireTime(q.start_at) : undefined;
  const to = q.end_at ? parseWireTime(q.end_at) : undefined;
  const rows = ctx.store.data.notebooks
    .filter((nb) => nb.namespace === ctx.params.namespace)
    .map((nb) => ({ nb, wire: wire(ctx, nb) }))
    .filter(
      ({ nb, wire: w }) =>
        (!name || nb.name.toLowerCase().includes(name)) &&
        (!statuses || statuses.has(String(w.status).toLowerCase())) &&
        (!q.owner || nb.user_id === q.owner) &&
        (from === undefined || Number.isNaN(from) || nb.created_ms >= from) &&
        (to === undefined || Number.isNaN(to) || nb.created_ms <= to),
    );
  rows.sort((a, b) => compareValues(a.wire[orderBy], b.wire[orderBy]) || a.nb.created_ms - b.nb.created_ms);
  if (q.reverse) rows.reverse();
  return { data: page(rows, q.offset, q.limit).map((r) => r.wire), counts: rows.length };
};

/** POST .../notebooks/stop: stopping a stopped notebook changes nothing. */
export const stopNotebooks: Handler = (ctx) => {
  const body = bodyOf(stopNotebooksRequest, ctx);
  const nbs = body.uuids.map((u) => find(ctx, u));
  ctx.store.mutate(() => {
    for (const nb of nbs) {
      if (nb.stopped) continue;
      nb.run_ms_before += currentRunMs(nb, ctx.now, ctx.readyDelayMs);
      nb.stopped = true;
      nb.updated_ms = ctx.now;
    }
  });
  const data = nbs.map((nb) => wire(ctx, nb));
  return { data, counts: data.length };
};

/**
 * POST .../notebooks/start: Stopped or Failed notebooks start again (Pending,
 * then Running); Pending or Running ones are left as they are. sku_id becomes
 * the replica spec's `specs`; a custom_spec replaces the replica resources.
 */
export const startNotebooks: Handler = (ctx) => {
  const body = bodyOf(startNotebooksRequest, ctx);
  const nbs = body.uuids.map((u) => find(ctx, u));
  const specs = nbs.map((nb) =>
    body.custom_spec
      ? buildReplicaSpecs(ctx, { ...body.custom_spec, specs: body.custom_spec.specs ?? body.sku_id }, nb.uuid, "custom_spec", Number(nb.replica_specs.id))
      : { ...nb.replica_specs, specs: body.sku_id },
  );
  ctx.store.mutate(() => {
    nbs.forEach((nb, i) => {
      const status = notebookStatus(nb, ctx.now, ctx.readyDelayMs);
      if (status !== "Stopped" && status !== "Failed") return;
      nb.replica_specs = specs[i]!;
      restart(ctx, nb);
    });
  });
  const data = nbs.map((nb) => wire(ctx, nb));
  return { data, counts: data.length };
};

/** POST .../notebooks/set_stop_time */
export const setStopTime: Handler = (ctx) => {
  const body = bodyOf(setStopTimeRequest, ctx);
  const nb = find(ctx, body.uuid);
  ctx.store.mutate(() => {
    nb.stop_time = normaliseWireTime(body.stop_time);
    nb.updated_ms = ctx.now;
  });
  return { data: [wire(ctx, nb)], counts: 1 };
};

/** POST .../notebooks/set_delete_time: a time already past removes the notebook at once. */
export const setDeleteTime: Handler = (ctx) => {
  const body = bodyOf(setDeleteTimeRequest, ctx);
  const nb = find(ctx, body.uuid);
  ctx.store.mutate(() => {
    nb.auto_delete_time = normaliseWireTime(body.auto_delete_time);
    nb.updated_ms = ctx.now;
  });
  const data = [wire(ctx, nb)];
  ctx.store.purgeExpired(ctx.now);
  return { data, counts: 1 };
};

/** POST .../notebooks/change_image: a notebook that is not stopped restarts on the new image. */
export const changeImage: Handler = (ctx) => {
  const body = bodyOf(changeImageRequest, ctx);
  const nb = find(ctx, body.uuid);
  ctx.store.mutate(() => {
    nb.image = body.image;
    nb.image_type = body.image_type;
    if (nb.stopped) nb.updated_ms = ctx.now;
    else restart(ctx, nb);
  });
  return { data: [wire(ctx, nb)], counts: 1 };
};
