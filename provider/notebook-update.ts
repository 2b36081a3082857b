/**
 * The steps of a notebook update that are not waits (notebook-settle.ts):
 * the in-place writes, the error for a notebook deleted outside Pulumi, and
 * the outputs an update records.
 */
import { AicpError } from "../client/errors";
import * as wire from "../client/wire";
import { wireBody, type NotebookInputs } from "./notebook-inputs";
import { outputs, type NotebookOutputs } from "./notebook-outputs";
import type { SettlePlatform } from "./notebook-settle";
import type { NotebookRef } from "./notebook-wait";
import type { Written } from "./notebook-evidence";

/**
 * The platform write of each in-place change the field table names
 * (client/wire/notebook-fields.ts), in the order they are sent. A time the
 * program no longer sets is cleared with an empty one (diffNotebook reports
 * it only where the program had set it).
 */
const inPlaceWrites = {
  setStopTime: (client, { namespace, uuid }, news) => client.setStopTime(namespace, uuid, news.stopTime ?? ""),
  setDeleteTime: (client, { namespace, uuid }, news) => client.setDeleteTime(namespace, uuid, news.autoDeleteTime ?? ""),
  changeImage: (client, { namespace, uuid }, news) => {
    return client.changeImage(namespace, wire.changeImageBody(uuid, wireBody({ ...news, namespace })));
  },
} satisfies Partial<Record<wire.NotebookChange, (client: SettlePlatform["client"], ref: NotebookRef, news: NotebookInputs) => Promise<void>>>;

/** Whether `changed` holds a field the write `write` applies. */
function needs(changed: Set<string>, write: wire.NotebookChange): boolean {
  return [...changed].some((field) => field in wire.notebookFields && wire.notebookFields[field as wire.NotebookFieldName].change === write);
}

/** Sends the in-place writes of `changed` (stop time, auto-delete time, image, each set or cleared); true when any was sent. */
export async function applyInPlace({ client, write }: SettlePlatform, ref: NotebookRef, changed: Set<string>, news: NotebookInputs): Promise<boolean> {
  let wrote = false;
  try {
    for (const [name, send] of Object.entries(inPlaceWrites)) {
      if (!needs(changed, name as keyof typeof inPlaceWrites)) continue;
      wrote = true;
      await write(ref.namespace, () => send(client, ref, news));
    }
  } catch (error) {
    if (error instanceof AicpError && error.isNotFound) throw goneOutOfBand(ref.uuid, ref.namespace, error);
    throw error;
  }
  return wrote;
}

/** Whether `changed` holds a change_image write (image, its type, or its registry credentials). */
export function changesImage(changed: Set<string>): boolean {
  return needs(changed, "changeImage");
}

/**
 * What the update's in-place writes should show (notebook-evidence.ts), from
 * the notebook as seen before them; undefined when none is waited on. A new
 * image (or new registry credentials) restarts a notebook that is not stopped.
 */
export function imageWritten(before: wire.Notebook, changed: Set<string>, news: NotebookInputs): Written | undefined {
  if (!changesImage(changed)) return undefined;
  return { before, image: news.image, restarted: before.status !== "Stopped" };
}

/**
 * The notebook as seen before an update's writes, which the waits after them
 * compare answers with (notebook-evidence.ts); an error when it is gone. A
 * state the program keeps through ignoreChanges is not changed as a side
 * effect of another update: a new image restarts a Failed
 * notebook, so with desiredState kept Failed it is refused before anything
 * is sent. (A resize of such a notebook waits for its next start instead.)
 */
export function beforeWrites(found: wire.Notebook | undefined, ref: NotebookRef, news: NotebookInputs, changed: Set<string>): wire.Notebook {
  if (!found) throw goneOutOfBand(ref.uuid, ref.namespace);
  refuseSideEffects(news, found, changed);
  return found;
}

function refuseSideEffects(news: NotebookInputs, before: wire.Notebook, changed: Set<string>): void {
  if (news.desiredState !== "Failed" || before.status !== "Failed" || !changesImage(changed)) return;
  throw new AicpError(
    "AICP_CONFLICT",
    `notebook ${before.uuid} is Failed (${before.reason ?? "no reason given"}) and the program keeps its desiredState through ignoreChanges; ` +
      "a new image or registry credentials would restart it, which the program did not ask for. Nothing was changed. " +
      'To restart it on the new image, remove "desiredState" from ignoreChanges (the program\'s desiredState then applies) and run `pulumi up`; or keep ' +
      "the old image until you do.",
  );
}

/**
 * The notebook as an update records it once its writes were accepted: the
 * platform's answer after them (`seen`), carrying the image the write set
 * where that answer still shows the one before (a list that lags). Recording
 * the old image would make the next `up` send the change, and restart the
 * notebook, again.
 */
export function withWrites(seen: wire.Notebook, before: wire.Notebook, changed: Set<string>, news: NotebookInputs): wire.Notebook {
  if (!changesImage(changed) || seen.image !== before.image) return seen;
  const body = wireBody({ ...news, namespace: String(news.namespace ?? before.namespace) });
  return { ...seen, image: body.image, image_type: body.image_type };
}

/** The error of an update whose notebook was deleted outside Pulumi. */
export function goneOutOfBand(uuid: string, namespace: string, cause?: AicpError): AicpError {
  return new AicpError(
    "AICP_WAIT",
    `notebook ${uuid} no longer exists in namespace ${namespace} (deleted outside Pulumi); run \`pulumi refresh\` to drop it from the state, then \`pulumi ` +
      `up\` to create it again.`,
    cause ? { ...cause, cause } : {},
  );
}

/**
 * Outputs after an update: the program's inputs over what the platform has;
 * `recordedSpec` replaces the platform's size (one waiting for the next start
 * when `atNextStart`, or the old one after a refused resize).
 */
export function notebookOutputs(news: NotebookInputs, current: wire.Notebook, recordedSpec: Partial<NotebookInputs>, atNextStart: boolean): NotebookOutputs {
  const outs = outputs(news, current);
  if (!recordedSpec.replicaSpecs) return outs;
  const replicaSpecs = { ...(outs.replicaSpecs as object), ...recordedSpec.replicaSpecs };
  return (atNextStart ? { ...outs, replicaSpecs, resizeAtStart: true } : { ...outs, replicaSpecs }) as NotebookOutputs;
}
