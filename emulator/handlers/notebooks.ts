/** Notebooks: create (platform-api A4.2), list and access info (platform-api B1). */
import { randomBytes } from "node:crypto";
import { checkOwnUser } from "../common-params";
import { ApiError, notFound } from "../errors";
import type { NotebookRecord } from "../records";
import { createNotebookBody, listNotebooksQuery, notebookServersQuery } from "../schemas/notebook";
import { parseDateTime, requestToStored } from "../times";
import { randomId } from "../util";
import { type Handler, type HandlerContext, bodyOf, compareValues, listPage, queryOf } from "./context";
import { buildReplicaSpecs, buildVolumeSpecs } from "./notebook-specs";
import { mainServer, notebookStatus, notebookToWire, sshPort } from "./notebook-wire";

/** The wire form of `nb` for this request. */
export function wire(ctx: HandlerContext, nb: NotebookRecord): Record<string, unknown> {
  const answer = notebookToWire(nb, ctx.now, ctx.readyDelayMs, ctx.dialect);
  return { ...answer, status: ctx.misbehaviour.statusWord(String(answer.status)) };
}

/** The wire form of `nb` in a list answer, which may lag behind the writes (misbehaviour staleListMs). */
function listedWire(ctx: HandlerContext, nb: NotebookRecord): Record<string, unknown> {
  const { record, at } = ctx.misbehaviour.asListed(nb, ctx.now);
  return wire({ ...ctx, now: at }, record);
}

/** The caller's notebook `uuid` (the namespace is the caller's own), or a 404. */
export function findNotebook(ctx: HandlerContext, uuid: string): NotebookRecord {
  const nb = ctx.store.data.notebooks.find((n) => n.uuid === uuid && n.namespace === ctx.params.namespace);
  if (!nb) throw notFound(`notebook '${uuid}' in namespace '${ctx.params.namespace}'`);
  return nb;
}

/** The caller's notebook `uuid`, about to be written (lagging lists keep how it looked before). */
export function notebookToWrite(ctx: HandlerContext, uuid: string): NotebookRecord {
  const nb = findNotebook(ctx, uuid);
  ctx.misbehaviour.beforeWrite(nb, ctx.now);
  return nb;
}

/** POST /notebooks/namespaces/{namespace}/create: data is a one-element array, counts 0 (platform-api A1). */
export const createNotebook: Handler = (ctx) => {
  const body = bodyOf(createNotebookBody, ctx);
  if (body.namespace !== ctx.params.namespace) {
    throw new ApiError(400, 400, `invalid request body: namespace: '${body.namespace}' differs from the path's namespace '${ctx.params.namespace}'`);
  }
  checkOwnUser(body.user_id, ctx.user, "user_id");
  const uuid = randomId("nb-");
  const zone = ctx.dialect.bareTimeZone;
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
    stop_time: requestToStored(body.stop_time, zone),
    auto_delete_time: requestToStored(body.auto_delete_time, zone),
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

/**
 * GET /notebooks/namespaces/{namespace}/notebooks with the SDK-style filters:
 * name and image_name (partial, any case), status list, owner, created between
 * start_at and end_at, order_by and reverse. `endpoints` has no meaning for
 * notebooks and is ignored.
 */
export const listNotebooks: Handler = (ctx) => {
  const q = queryOf(listNotebooksQuery, ctx);
  const orderBy = q.order_by || "created_at";
  if (!NOTEBOOK_ORDER.has(orderBy)) {
    throw new ApiError(400, 400, `invalid request query: order_by: cannot sort by '${orderBy}'; use one of ${[...NOTEBOOK_ORDER].join(", ")}`);
  }
  const name = q.name?.toLowerCase();
  const image = q.image_name?.toLowerCase();
  const statuses = q.status && q.status.length > 0 ? new Set(q.status.map((s) => s.toLowerCase())) : undefined;
  const zone = ctx.dialect.bareTimeZone;
  const from = q.start_at ? parseDateTime(q.start_at, zone) : undefined;
  const to = q.end_at ? parseDateTime(q.end_at, zone) : undefined;
  const matching = ctx.store.data.notebooks
    .filter((nb) => nb.namespace === ctx.params.namespace)
    .filter(
      (nb) =>
        (!name || nb.name.toLowerCase().includes(name)) &&
        (!image || nb.image.toLowerCase().includes(image)) &&
        (!statuses || statuses.has(notebookStatus(nb, ctx.now, ctx.readyDelayMs).toLowerCase())) &&
        (!q.owner || nb.user_id === q.owner) &&
        (from === undefined || nb.created_ms >= from) &&
        (to === undefined || nb.created_ms <= to),
    );
  const filtered = [q.name, q.image_name, q.owner, q.start_at, q.end_at].some(Boolean) || (q.status?.length ?? 0) > 0;
  const rows = ctx.misbehaviour
    .shown(
      matching,
      ctx.now,
      (nb) => nb.name,
      (nb) => nb.created_ms,
      filtered,
    )
    .map((nb) => ({ nb, wire: listedWire(ctx, nb) }));
  rows.sort((a, b) => compareValues(a.wire[orderBy], b.wire[orderBy]) || a.nb.created_ms - b.nb.created_ms);
  if (q.reverse) rows.reverse();
  const page = listPage(ctx, rows, q.offset, q.limit, (r) => r.wire);
  ctx.misbehaviour.afterFirstPage(ctx.store, ctx.params.namespace!, q.offset, ctx.now, filtered, matching);
  return page;
};

/** `services` names (the docs: jupyter, vscode, ssh, custom, node_port) matching each server type. */
const SERVICE_OF: Record<string, string> = { jupyter: "jupyter", code_server: "vscode", rstudio: "rstudio", ssh: "ssh" };

/**
 * GET /notebooks/namespaces/{namespace}/notebooks/{uuid}/servers. The docs'
 * sample (get_notebook_servers) answers `data` as a list of platform-api A2.2 `servers`
 * items with counts = its length. Here a notebook has its development server
 * and an SSH service; `services` keeps those named (the docs call code_server
 * `vscode`), all when absent. Passwords are included, as in the sample.
 */
export const getNotebookServers: Handler = (ctx) => {
  const q = queryOf(notebookServersQuery, ctx);
  const nb = findNotebook(ctx, ctx.params.uuid!);
  const running = notebookStatus(nb, ctx.now, ctx.readyDelayMs) === "Running";
  const ssh = {
    status: running,
    protocol: "ssh",
    server_name: "ssh",
    server_type: "ssh",
    url: running ? `ssh root@ssh.aicp.emulator -p ${sshPort(nb)}` : "",
    target_port: 22,
    password: running ? nb.password : null,
  };
  const wanted = q.services && q.services.length > 0 ? new Set(q.services) : undefined;
  const data = [mainServer(nb, running), ssh].filter((s) => !wanted || wanted.has(SERVICE_OF[String(s.server_type)] ?? String(s.server_type)));
  return { data, counts: data.length };
};
