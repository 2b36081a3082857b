/**
 * How a Notebook is found by its name and recognised by its mark: what the
 * create (create-once.ts), the resolution of an unconfirmed create, and the
 * preview's look at a pinned name (notebook/preview.ts) share.
 */
import type { AicpClient } from "../../client/client";
import { instantOf } from "../../client/times";
import type * as wire from "../../client/wire";
import { uncertaintyOf } from "../create-evidence";
import type { NameHolders } from "../create-once";
import { notebookMarkOf, notebookPlaceOf, notebookSentAtOf } from "../ownership";

/** The notebooks holding `name` in `namespace`, told apart by `mark` (create-once.ts). */
export function notebookNameHolders(
  client: AicpClient,
  namespace: string,
  name: string,
  mark: string | undefined,
  stackPlace?: string,
): NameHolders<wire.Notebook> {
  return {
    ...notebookByMark(client, namespace, name, mark, stackPlace),
    noun: "notebook",
    place: `namespace ${namespace}`,
    name,
    statusOf: (n) => n.status ?? undefined,
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

/** Looks a notebook up by name and recognises it by its mark (and, from a copy, by its id or creation time: create-evidence.ts madeBy). */
export function notebookByMark(client: AicpClient, namespace: string, name: string, mark: string | undefined, stackPlace?: string) {
  return {
    mark,
    stackPlace,
    statedStackPlaceOf: (n: wire.Notebook) => notebookPlaceOf(n.envs),
    idOf: (n: wire.Notebook) => n.uuid,
    createdAtOf: (n: wire.Notebook) => (typeof n.created_at === "string" ? instantOf(n.created_at, client.timeZone.offset ?? 0) : NaN),
    createdAtUncertaintyMs: (n: wire.Notebook) => uncertaintyOf(n.created_at, client.timeZone.offset),
    markOf: (n: wire.Notebook) => notebookMarkOf(n.envs),
    statedSentAtOf: (n: wire.Notebook) => notebookSentAtOf(n.envs),
    goingAway: (n: wire.Notebook) => goingAway(n, client.timeZone.offset ?? 0),
    findByName: () => client.findNotebooksByName(namespace, name),
  };
}
