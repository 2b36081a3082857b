/**
 * Where a notebook's create is sent and found again (create-once.ts): the
 * create-once target of one body, and the notebook a recorded id stands for,
 * a provisional id resolved by the mark.
 */
import type { AicpClient } from "../../client/client";
import { nowOnTheWire } from "../../client/times";
import type * as wire from "../../client/wire";
import { type CreateTarget, isProvisional, resolveProvisional } from "../create-once";
import { withMarkEnv } from "../ownership";
import type { Write } from "./listing";
import { notebookByMark, notebookNameHolders } from "./names";

/** The create-once target of one notebook body. */
export function notebookTarget(
  client: AicpClient,
  write: Write,
  body: wire.CreateNotebookRequest,
  mark: string | undefined,
  watchMs: number,
  /** The resource's place in its stack (its auto-name suffix), which the notebook states: ownership.ts placeEnvName. */
  stackPlace?: string,
): CreateTarget<wire.Notebook> {
  const namespace = body.namespace;
  return {
    ...notebookNameHolders(client, namespace, body.name, mark, stackPlace),
    send: (sentAt) =>
      write(namespace, undefined, () => client.createNotebook(mark === undefined ? body : { ...body, envs: withMarkEnv(body.envs, mark, sentAt, stackPlace) })),
    // A notebook of ours is removed by the platform once its auto-delete time passes.
    remove: (n) => write(namespace, n.uuid, () => client.setDeleteTime(namespace, n.uuid, nowOnTheWire())),
    watchMs,
  };
}

/** What the state recorded for a notebook whose create was not confirmed. */
export interface ProvisionalProps {
  namespace?: unknown;
  name?: unknown;
  ownerMark?: unknown;
  /** The resource's place in its stack, which its notebook states (ownership.ts placeEnvName). */
  autoNameSuffix?: unknown;
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
): Promise<{ uuid: string; found?: wire.Notebook } | { pending: string; unproven: string } | { pastWindow: string; unproven: string }> {
  if (!isProvisional(id)) return { uuid: id };
  if (typeof props.uuid === "string" && props.uuid !== "") return { uuid: props.uuid };
  const mark = typeof props.ownerMark === "string" ? props.ownerMark : undefined;
  const place = typeof props.autoNameSuffix === "string" ? props.autoNameSuffix : undefined;
  const resolved = await resolveProvisional(notebookByMark(client, String(props.namespace), String(props.name), mark, place), props.createSentAt, waitMs);
  return "found" in resolved ? { uuid: resolved.found.uuid, found: resolved.found } : resolved;
}
