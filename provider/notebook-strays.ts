/**
 * Notebooks a create of this resource made that the state does not name (docs/identity.md, "Strays"): a
 * second create of an interrupted run, which the list did not show the run that made it in time to converge
 * (create-once.ts otherCreates). The walks of a refresh and a destroy list them anyway: a refresh names them,
 * and a destroy on the TypeScript front removes them; on the plugin a destroy names them, since there a
 * targeted replacement's new notebook is created, with the same mark, before the old one is deleted.
 */
import type { AicpClient } from "../client/client";
import { nowOnTheWire } from "../client/times";
import type * as wire from "../client/wire";
import { madeAsStated } from "./create-evidence";
import { replacementsDeleteFirst } from "./create-journal";
import { warn } from "./engine-log";
import type { NotebookListing, Write } from "./notebook-listing";
import { notebookByMark } from "./notebook-names";

/** What is recorded of the resource: where it lives, its mark and the notebook the state names. */
export interface RecordedNotebook {
  namespace: string;
  name: string | undefined;
  mark: unknown;
  uuid: string;
}

/** The strays of `recorded` in a walk of its namespace started at or after `notBefore` (a refresh's or a destroy's own walk). */
export async function straysOf(client: AicpClient, listing: NotebookListing, recorded: RecordedNotebook, notBefore: number): Promise<wire.Notebook[]> {
  if (typeof recorded.mark !== "string") return [];
  const evidence = notebookByMark(client, recorded.namespace, recorded.name ?? "", recorded.mark);
  const listed = await listing.listed(recorded.namespace, notBefore).catch(() => []);
  return listed.filter((n) => n.uuid !== recorded.uuid && evidence.markOf(n) === recorded.mark && !evidence.goingAway(n) && madeAsStated(evidence, n));
}

/** A refresh names the strays of the resource it read. */
export async function reportStrays(strays: wire.Notebook[], recorded: RecordedNotebook): Promise<void> {
  if (strays.length === 0) return;
  await warn(
    `${describe(strays, recorded)} \`pulumi destroy\` removes ${strays.length === 1 ? "it" : "them"} with the TypeScript package; otherwise delete ` +
      `${strays.length === 1 ? "it" : "them"} in the console once you have checked ${strays.length === 1 ? "it is" : "they are"} not in use.`,
  );
}

/** A destroy removes the strays of the resource it deleted where no replacement is made beside the old notebook, and names them elsewhere. */
export async function removeStrays(client: AicpClient, write: Write, strays: wire.Notebook[], recorded: RecordedNotebook): Promise<void> {
  if (strays.length === 0) return;
  if (!replacementsDeleteFirst()) return reportStrays(strays, recorded);
  const { failed } = await removeUnrecorded(client, write, recorded.namespace, strays);
  await warn(
    `${describe(strays, recorded)} Removed with it` +
      (failed.length > 0 ? `, except ${failed.join(", ")}: delete it in the console once you have checked it is not in use` : "") +
      ".",
  );
}

/**
 * Removes notebooks of this resource that no state records (strays, and the second creates convergence
 * leaves out), as a delete does, without waiting for them to go: stopped, then their auto-delete time set to now
 * (docs/platform-api.md). Returns the ids removed and, for each that failed, its id and why.
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
      if (n.status !== "Stopped") await write(namespace, n.uuid, () => client.stopNotebooks(namespace, [n.uuid]));
      await write(namespace, n.uuid, () => client.setDeleteTime(namespace, n.uuid, nowOnTheWire()));
      removed.push(n.uuid);
    } catch (error) {
      failed.push(`${n.uuid} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { removed, failed };
}

function describe(strays: wire.Notebook[], recorded: RecordedNotebook): string {
  const listed = strays.map((n) => `${n.uuid} (${n.status ?? "status unknown"}, made ${String(n.created_at)})`).join(", ");
  return (
    `namespace ${recorded.namespace} also holds ${listed}, carrying the mark of this resource, whose state names ${recorded.uuid}, and made ` +
    `by a create of it (made when the create it states was sent): a second create of a run that was interrupted.`
  );
}
