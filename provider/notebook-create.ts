/**
 * How a Notebook goes through the create-once path (create-once.ts): found by
 * its exact name, owned by the mark in its envs (ownership.ts), and resolved
 * by that mark when the state holds only a provisional id.
 */
import type { AicpClient } from "../client/client";
import type * as wire from "../client/wire";
import { instantOf } from "../client/times";
import { type CreateTarget, isProvisional, resolveProvisional } from "./create-once";
import { notebookMarkOf, withMarkEnv } from "./ownership";

/** Sends one write and forgets the listing of its namespace afterwards. */
export type Write = <T>(namespace: string, send: () => Promise<T>) => Promise<T>;

/** The create-once target of one notebook body. */
export function notebookTarget(
  client: AicpClient,
  write: Write,
  body: wire.CreateNotebookRequest,
  mark: string | undefined,
  watchMs: number,
): CreateTarget<wire.Notebook> {
  const namespace = body.namespace;
  return {
    ...byMark(client, namespace, body.name, mark),
    noun: "notebook",
    place: `namespace ${namespace}`,
    name: body.name,
    statusOf: (n) => n.status ?? undefined,
    send: () => write(namespace, () => client.createNotebook(mark === undefined ? body : { ...body, envs: withMarkEnv(body.envs, mark) })),
    // A Failed notebook of ours is removed by the platform once its auto-delete time passes.
    removeFailed: (n) => write(namespace, () => client.setDeleteTime(namespace, n.uuid, nowOnTheWire())),
    watchMs,
  };
}

/**
 * Its auto-delete time has passed, and lies after its creation (a zero-time
 * placeholder for "none" does not count): a delete, ours before a replacement
 * or a removal of a Failed one, is under way.
 */
function goingAway(n: wire.Notebook, zone: number): boolean {
  if (typeof n.auto_delete_time !== "string" || n.auto_delete_time === "") return false;
  const at = instantOf(n.auto_delete_time, zone);
  const created = typeof n.created_at === "string" ? instantOf(n.created_at, zone) : NaN;
  return !Number.isNaN(at) && at <= Date.now() && (Number.isNaN(created) || at >= created);
}

/** Looks a notebook up by name and recognises it by its mark (and, from a copy, by its id or creation time: create-once.ts madeBy). */
function byMark(client: AicpClient, namespace: string, name: string, mark: string | undefined) {
  return {
    mark,
    idOf: (n: wire.Notebook) => n.uuid,
    createdAtOf: (n: wire.Notebook) => (typeof n.created_at === "string" ? instantOf(n.created_at, client.timeZone.offset ?? 0) : NaN),
    markOf: (n: wire.Notebook) => notebookMarkOf(n.envs),
    goingAway: (n: wire.Notebook) => goingAway(n, client.timeZone.offset ?? 0),
    findByName: () => client.findNotebooksByName(namespace, name),
  };
}

/** What the state recorded for a notebook whose create was not confirmed. */
interface ProvisionalProps {
  namespace?: unknown;
  name?: unknown;
  ownerMark?: unknown;
  createSentAt?: unknown;
  uuid?: unknown;
}

/**
 * The notebook a recorded id stands for: the id itself; for a provisional id,
 * the uuid an earlier update resolved, else the notebook its create made, now
 * listed with the mark ("pending" while it may still appear, "pastWindow" after).
 */
export async function resolveNotebook(
  client: AicpClient,
  id: string,
  props: ProvisionalProps,
  waitMs: number,
): Promise<{ uuid: string; found?: wire.Notebook } | { pending: string } | { pastWindow: string }> {
  if (!isProvisional(id)) return { uuid: id };
  if (typeof props.uuid === "string" && props.uuid !== "") return { uuid: props.uuid };
  const mark = typeof props.ownerMark === "string" ? props.ownerMark : undefined;
  const resolved = await resolveProvisional(byMark(client, String(props.namespace), String(props.name), mark), props.createSentAt, waitMs);
  return "found" in resolved ? { uuid: resolved.found.uuid, found: resolved.found } : resolved;
}

/** Now, as the platform's date-time form without fraction. */
export function nowOnTheWire(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}
