/** Writes on existing notebooks: stop, start, set_stop_time, set_delete_time, change_image (platform-api B1). */
import type { NotebookRecord } from "../records";
import { changeImageBody, setDeleteTimeBody, setStopTimeBody, startNotebooksBody, stopNotebooksBody } from "../schemas/notebook";
import { requestToStored } from "../times";
import { type Handler, type HandlerContext, type HandlerResult, bodyOf } from "./context";
import { buildReplicaSpecs } from "./notebook-specs";
import { currentRunMs, notebookStatus } from "./notebook-wire";
import { findNotebook, notebookToWrite, wire } from "./notebooks";
import { ApiError } from "../errors";

/** Starts (or restarts) the Pending -> Running clock, keeping the running time so far. */
function restart(ctx: HandlerContext, nb: NotebookRecord): void {
  nb.run_ms_before += currentRunMs(nb, ctx.now, ctx.readyDelayMs);
  nb.started_ms = ctx.now;
  nb.stopped = false;
  nb.failed_reason = null;
  nb.updated_ms = ctx.now;
}

/**
 * Shape of `data` answered by a write on one notebook under the dialect's
 * `singleWriteData`. The docs' samples: set_stop_time answers an object,
 * set_delete_time an array (platform-api B5). change_image's sample could
 * not be read past its first lines; its field table is laid out like
 * set_delete_time's (no `data` row, `envs` typed string), so it follows that page.
 */
const DOCS_SHAPE = { setStopTime: "object", setDeleteTime: "array", changeImage: "array" } as const;

function singleWrite(ctx: HandlerContext, operation: keyof typeof DOCS_SHAPE, nb: Record<string, unknown>): HandlerResult {
  const mode = ctx.dialect.singleWriteData;
  const shape = mode === "docs" ? DOCS_SHAPE[operation] : mode;
  return shape === "object" ? { data: nb, counts: 1 } : { data: [nb], counts: 1 };
}

/** POST .../notebooks/stop: stopping a stopped notebook changes nothing; data is an array. */
export const stopNotebooks: Handler = (ctx) => {
  const body = bodyOf(stopNotebooksBody, ctx);
  const nbs = body.uuids.map((u) => notebookToWrite(ctx, u));
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
 * then Running), a Failed one refused instead under the dialect's
 * `startFailed: refuse`; Pending or Running ones are left as they are. sku_id becomes
 * the replica spec's `specs`; a custom_spec replaces the replica resources.
 */
export const startNotebooks: Handler = (ctx) => {
  const body = bodyOf(startNotebooksBody, ctx);
  const nbs = body.uuids.map((u) => findNotebook(ctx, u));
  const failed = nbs.find((nb) => notebookStatus(nb, ctx.now, ctx.readyDelayMs) === "Failed");
  if (failed && ctx.dialect.startFailed === "refuse") {
    throw new ApiError(
      400,
      400,
      `notebook '${failed.uuid}' is Failed and cannot be started: ${failed.failed_reason ?? `ErrImagePull: image ${failed.image} not found`}`,
    );
  }
  for (const nb of nbs) ctx.misbehaviour.beforeWrite(nb, ctx.now);
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

/** POST .../notebooks/set_stop_time: a time without zone is read in the dialect's zone; an empty one clears it. */
export const setStopTime: Handler = (ctx) => {
  const body = bodyOf(setStopTimeBody, ctx);
  const nb = notebookToWrite(ctx, body.uuid);
  ctx.store.mutate(() => {
    nb.stop_time = requestToStored(body.stop_time, ctx.dialect.bareTimeZone);
    nb.updated_ms = ctx.now;
  });
  return singleWrite(ctx, "setStopTime", wire(ctx, nb));
};

/** POST .../notebooks/set_delete_time: a time already past removes the notebook at once; an empty one clears it. */
export const setDeleteTime: Handler = (ctx) => {
  const body = bodyOf(setDeleteTimeBody, ctx);
  const nb = notebookToWrite(ctx, body.uuid);
  ctx.store.mutate(() => {
    nb.auto_delete_time = requestToStored(body.auto_delete_time, ctx.dialect.bareTimeZone);
    nb.updated_ms = ctx.now;
  });
  const answer = singleWrite(ctx, "setDeleteTime", wire(ctx, nb));
  ctx.store.purgeExpired(ctx.now);
  return answer;
};

/** POST .../notebooks/change_image: a notebook that is not stopped restarts on the new image. */
export const changeImage: Handler = (ctx) => {
  const body = bodyOf(changeImageBody, ctx);
  const nb = notebookToWrite(ctx, body.uuid);
  // Stopped by hand or by its stop time: the new image applies at the next start.
  const stopped = notebookStatus(nb, ctx.now, ctx.readyDelayMs) === "Stopped";
  ctx.store.mutate(() => {
    nb.image = body.image;
    nb.image_type = body.image_type;
    if (stopped) nb.updated_ms = ctx.now;
    else restart(ctx, nb);
  });
  return singleWrite(ctx, "changeImage", wire(ctx, nb));
};
