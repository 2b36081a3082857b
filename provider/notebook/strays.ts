/**
 * Notebooks a create of this resource made that the state does not name (docs/identity.md, "Strays"): a
 * second create of an interrupted run, which the list did not show the run that made it in time to converge
 * (create-once.ts otherCreates). The walks of a refresh and a destroy list them anyway, and both name them.
 * Neither removes them: a mark and a stated send time do not prove a notebook is an orphan of this resource
 * (a copy of its settings, a resource renamed with aliases and a new one under the old name, a notebook kept
 * by retainOnDelete, a second stack imported from this one's state all carry the same evidence).
 */
import type { AicpClient } from "../../client/client";
import { nowOnTheWire } from "../../client/times";
import type * as wire from "../../client/wire";
import { madeAsStated } from "../create-evidence";
import { recordedHere } from "../create-journal";
import { warn } from "../engine-log";
import type { NotebookListing, Write } from "./listing";
import { notebookByMark } from "./names";

/** What is recorded of the resource: where it lives, its name and mark, and the notebook the state names. */
export interface RecordedNotebook {
  namespace: string;
  name: string | undefined;
  mark: unknown;
  /** Its place in its stack (the recorded auto-name suffix), which its notebooks state. */
  stackPlace?: unknown;
  uuid: string;
}

/**
 * The strays of `recorded` in a walk of its namespace started at or after `notBefore` (a refresh's or a
 * destroy's own walk): its name, its mark, made as they state, and no id this process saw the state record
 * (a targeted replacement's new notebook, on the plugin, is created before the old one is deleted).
 */
export async function straysOf(client: AicpClient, listing: NotebookListing, recorded: RecordedNotebook, notBefore: number): Promise<wire.Notebook[]> {
  if (typeof recorded.mark !== "string" || recorded.name === undefined) return [];
  const place = typeof recorded.stackPlace === "string" ? recorded.stackPlace : undefined;
  const evidence = notebookByMark(client, recorded.namespace, recorded.name, recorded.mark, place);
  const listed = await listing.listed(recorded.namespace, notBefore, recorded.name).catch(() => []);
  return listed.filter(
    (n) =>
      n.uuid !== recorded.uuid &&
      n.name === recorded.name &&
      !recordedHere(n.uuid) &&
      evidence.markOf(n) === recorded.mark &&
      !evidence.goingAway(n) &&
      madeAsStated(evidence, n),
  );
}

/** A refresh and a destroy name the strays of the resource they read or deleted. */
export async function reportStrays(strays: wire.Notebook[], recorded: RecordedNotebook): Promise<void> {
  if (strays.length === 0) return;
  const listed = strays.map((n) => `${n.uuid} (${n.status ?? "status unknown"}, made ${String(n.created_at)})`).join(", ");
  const one = strays.length === 1;
  await warn(
    `namespace ${recorded.namespace} also holds ${listed}, named '${recorded.name}' and carrying the mark of this resource, whose state names ` +
      `${recorded.uuid}; ${one ? "it was" : "they were"} made when the create ${one ? "it states" : "they state"} was sent: most likely a second create ` +
      `of a run that was interrupted, or a copy of its settings. The provider leaves ${one ? "it" : "them"}: delete ${one ? "it" : "them"} in the console ` +
      `once you have checked ${one ? "it is" : "they are"} not in use.`,
  );
}

/**
 * Removes the notebooks convergence leaves out (notebook/index.ts keepFirstMade): creates of the resource that this
 * run or one racing it sent, listed beside the one the shared rule keeps; never a stray. As a delete does, without
 * waiting for them to go: stopped, then their auto-delete time set to now (docs/platform-api.md). Returns the
 * ids removed and, for each that failed, its id and why.
 */
export async function removeUnrecorded(
  client: AicpClient,
  write: Write,
  namespace: string,
  notebooks: wire.Notebook[],
): Promise<{ removed: string[]; failed: string[] }> {
  const removed: string[] = [];
  const failed: string[] = [];
  for (const n of notebooks) {
    try {
      // The stop frees its GPUs at once; one the platform refuses to stop (a Failed one) is still given its delete time.
      if (n.status !== "Stopped") await write(namespace, n.uuid, () => client.stopNotebooks(namespace, [n.uuid])).catch(() => undefined);
      await write(namespace, n.uuid, () => client.setDeleteTime(namespace, n.uuid, nowOnTheWire()));
      removed.push(n.uuid);
    } catch (error) {
      failed.push(`${n.uuid} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { removed, failed };
}
