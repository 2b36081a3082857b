/**
 * Update of a recorded notebook: its in-place writes (stop time, auto-delete
 * time, image: the field table's `change`, client/wire/notebook-fields.ts),
 * a resize, and bringing it to the state the program wants, waiting for it.
 * Every start sends the program's replica spec, so a size recorded while the
 * notebook was parked applies at its next start; a resize the platform
 * refuses puts the notebook back as it was. Which notebook an update applies
 * to (a provisional id confirmed by its mark, a take-over) is decided before,
 * in notebook.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as wire from "../../client/wire";
import { AicpError } from "../../client/errors";
import { diffNotebook } from "./diff";
import { wireBody, type NotebookInputs, defaults } from "./inputs";
import { digestKey, learnZoneFromState, updatedOutputs, type NotebookOutputs } from "./outputs";
import { type NotebookRef, waitForStatus } from "./wait";
import { type Written, evidenceOf } from "./evidence";
import { confirmedLookup, type NotebookPlatform } from "./listing";
import { goneOutOfBand, lastSeen, partlyCreatedNotebook, ResizeRefused, StartRefused } from "./errors";
import { inDesiredState, stoppedOnSchedule } from "./state";
import { notebookMarkOf, refuseOwnedElsewhere } from "../ownership";

/** Where an update applies: the recorded id, the notebook's reference, the notebook if already found, and whether the update confirms its create. */
export interface UpdateTarget {
  id: string;
  ref: NotebookRef;
  found?: wire.Notebook;
  /** The state held a provisional id this update resolved: the create never waited for the desired state. */
  confirming: boolean;
}

/**
 * Applies the program to a notebook the state records: its in-place writes,
 * a resize, then its desired state. An error after a write still records
 * what the platform shows (the engine keeps the notebook with this id).
 */
export async function applyUpdate(
  p: NotebookPlatform,
  { id, ref, found, confirming }: UpdateTarget,
  olds: NotebookOutputs,
  news: NotebookInputs & { __provider?: string },
): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  const { client, listing } = p;
  const { namespace, uuid } = ref;
  const { updates } = diffNotebook(olds, news, digestKey(), client.timeZone.offset);
  const changed = new Set(updates);
  const before = beforeWrites(found ?? (await confirmedLookup(listing, ref)), ref, news, changed);
  refuseOwnedElsewhere("notebook", uuid, notebookMarkOf(before.envs), olds);
  learnZoneFromState(olds.createdAt, before.created_at);
  const wrote = await applyInPlace(p, ref, changed, news);
  let written = imageWritten(before, changed, news);
  let current = wrote ? withWrites((await listing.locate(namespace, uuid, ref.name)) ?? before, before, changed, news) : before;
  // What the outputs record: the program, and whether the notebook has still never run.
  const program: NotebookInputs = Object.assign({}, news, { neverRan: olds.neverRan });
  let recordedSpec: Partial<NotebookInputs> = {};
  try {
    if (changed.has("replicaSpecs")) {
      const resized = await resize(p, news, current, written);
      ({ current, written = written } = resized);
      if (resized.atNextStart) recordedSpec = { replicaSpecs: news.replicaSpecs };
    }
    // What can restart a notebook is waited for; so is one the state records away from its desired state
    // (Failed, not ready yet after a create that timed out). A notebook the platform stopped on schedule is not.
    const zone = client.timeZone.offset ?? 0;
    const recordedAway = !inDesiredState({ status: String(olds.status ?? ""), stop_time: olds.stopTime }, olds.desiredState ?? defaults.desiredState, zone);
    if (confirming || written || recordedAway || changed.has("desiredState"))
      current = await settle(p, news, current, written, confirming || changed.has("desiredState"));
    else if (wrote) current = (await listing.locate(namespace, uuid, ref.name)) ?? current;
    // A size still waiting for the next start stays recorded while the notebook stays stopped.
    if (!changed.has("replicaSpecs") && olds.resizeAtStart === true && (current.status === "Stopped" || news.desiredState === "Failed"))
      recordedSpec = { replicaSpecs: olds.replicaSpecs as NotebookInputs["replicaSpecs"] };
    return { outs: updatedOutputs(program, current, recordedSpec, Boolean(recordedSpec.replicaSpecs)) };
  } catch (error) {
    // A refused resize leaves the old size in the state, so reverting the program changes nothing more.
    const refused = error instanceof ResizeRefused;
    const kept = refused ? { replicaSpecs: olds.replicaSpecs as NotebookInputs["replicaSpecs"] } : recordedSpec;
    throw partlyCreatedNotebook(error, id, {
      ...updatedOutputs(program, lastSeen(error) ?? current, kept, !refused && Boolean(kept.replicaSpecs)),
      __provider: news.__provider,
    });
  }
}

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
} satisfies Partial<Record<wire.NotebookChange, (client: NotebookPlatform["client"], ref: NotebookRef, news: NotebookInputs) => Promise<void>>>;

/** Whether `changed` holds a field the write `write` applies. */
function needs(changed: Set<string>, write: wire.NotebookChange): boolean {
  return [...changed].some((field) => field in wire.notebookFields && wire.notebookFields[field as wire.NotebookFieldName].change === write);
}

/** Sends the in-place writes of `changed` (stop time, auto-delete time, image, each set or cleared); true when any was sent. */
async function applyInPlace({ client, write }: NotebookPlatform, ref: NotebookRef, changed: Set<string>, news: NotebookInputs): Promise<boolean> {
  let wrote = false;
  try {
    for (const [name, send] of Object.entries(inPlaceWrites)) {
      if (!needs(changed, name as keyof typeof inPlaceWrites)) continue;
      wrote = true;
      await write(ref.namespace, ref.uuid, () => send(client, ref, news));
    }
  } catch (error) {
    if (error instanceof AicpError && error.isNotFound) throw goneOutOfBand(ref.uuid, ref.namespace, error);
    throw error;
  }
  return wrote;
}

/** Whether `changed` holds a change_image write (image, its type, or its registry credentials). */
function changesImage(changed: Set<string>): boolean {
  return needs(changed, "changeImage");
}

/**
 * What the update's in-place writes should show (notebook/evidence.ts), from
 * the notebook as seen before them; undefined when none is waited on. A new
 * image (or new registry credentials) restarts a notebook that is not stopped.
 */
function imageWritten(before: wire.Notebook, changed: Set<string>, news: NotebookInputs): Written | undefined {
  if (!changesImage(changed)) return undefined;
  return { before, image: news.image, restarted: before.status !== "Stopped" };
}

/**
 * The notebook as seen before an update's writes, which the waits after them
 * compare answers with (notebook/evidence.ts); an error when it is gone. A
 * state the program keeps through ignoreChanges is not changed as a side
 * effect of another update: a new image restarts a Failed
 * notebook, so with desiredState kept Failed it is refused before anything
 * is sent. (A resize of such a notebook waits for its next start instead.)
 */
function beforeWrites(found: wire.Notebook | undefined, ref: NotebookRef, news: NotebookInputs, changed: Set<string>): wire.Notebook {
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
function withWrites(seen: wire.Notebook, before: wire.Notebook, changed: Set<string>, news: NotebookInputs): wire.Notebook {
  if (!changesImage(changed) || seen.image !== before.image) return seen;
  const body = wireBody({ ...news, namespace: String(news.namespace ?? before.namespace) });
  return { ...seen, image: body.image, image_type: body.image_type };
}

/** How long to wait for a desired state, from the inputs. */
export function waitOptions(inputs: NotebookInputs) {
  return { timeoutMs: 1000 * (inputs.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) };
}

/** The replica spec the program asks for, as the start operation takes it. */
function programSpec(inputs: NotebookInputs): wire.CreateNotebookRequest["replica_specs"] {
  // Without the registry credentials, which a start does not send (and which ignoreChanges may keep as a digest).
  return wireBody({ ...inputs, namespace: String(inputs.namespace), customImageSecret: undefined }).replica_specs;
}

/**
 * Brings the notebook to its desired state and waits for it unless
 * `waitForReady` is false: stops it, or starts a Stopped or Failed one with
 * the program's spec. `written` is what the update sent before (a new image,
 * a resize's start): a wait after a write counts only answers that show it
 * (notebook/evidence.ts), never the first Running of a list that lags. A
 * notebook its own stop time stopped is left stopped unless `startAsked`
 * (desiredState changed).
 */
export async function settle(
  { client, listing, write }: NotebookPlatform,
  inputs: NotebookInputs,
  current: wire.Notebook,
  written?: Written,
  startAsked = false,
): Promise<wire.Notebook> {
  const namespace = String(inputs.namespace);
  const desired = inputs.desiredState ?? defaults.desiredState;
  // Failed as a refresh recorded it, kept by ignoreChanges: the program leaves the status to the platform.
  if (desired === "Failed") return current;
  let restartedFromFailed = written?.restarted === true;
  // Failed before a new image: the change restarted it already (only a Stopped one waits for a start).
  const failedBefore = current.status === "Failed" && written?.restarted === true;
  // Stopped by its own stop time, as the program asked: started again only when the program asks for a start.
  if (desired === "Running" && !startAsked && !written?.started && stoppedOnSchedule(current, client.timeZone.offset ?? 0)) {
    // Seen before the update's write: the answer now carries its new image, unless the list lags.
    return written ? ((await listing.locate(namespace, current.uuid, current.name ?? inputs.name)) ?? current) : current;
  }
  let sent = false;
  if (desired === "Stopped" && current.status !== "Stopped") {
    await write(namespace, current.uuid, () => client.stopNotebooks(namespace, [current.uuid]));
    sent = true;
  }
  if (desired === "Running" && !written?.started && (current.status === "Stopped" || (current.status === "Failed" && !failedBefore))) {
    const spec = programSpec(inputs);
    const skuId = spec.specs ?? current.replica_specs?.specs ?? undefined;
    if (!skuId) {
      throw new AicpError(
        "AICP_VALIDATION",
        "starting a stopped notebook needs the sku id in replicaSpecs.specs (the platform's start operation requires it).",
      );
    }
    const start = () => client.startNotebooks(namespace, wire.startRequest(current.uuid, skuId, { ...spec, specs: skuId }));
    await write(namespace, current.uuid, start).catch((error: unknown) => {
      throw current.status === "Failed" && isRefusal(error) ? new StartRefused(current, error) : error;
    });
    sent = true;
    restartedFromFailed ||= current.status === "Failed";
  }
  const ref = { namespace, uuid: current.uuid, name: current.name ?? inputs.name };
  if (!(inputs.waitForReady ?? defaults.waitForReady)) return (await listing.locate(namespace, current.uuid, ref.name)) ?? current;
  // Nothing sent that changes the status (a new image for a stopped notebook applies at its next start): nothing to see.
  const awaited = sent || written?.restarted || written?.started ? evidenceOf({ ...written, before: written?.before ?? current }) : undefined;
  return waitForStatus(listing, ref, desired, { ...waitOptions(inputs), restartedFromFailed, showsWrite: awaited, scheduleZone: client.timeZone.offset ?? 0 });
}

/** The outcome of a resize: the notebook now, whether the new size waits for the next start, and the start it sent. */
export interface Resized {
  current: wire.Notebook;
  atNextStart: boolean;
  written?: Written;
}

/**
 * A new size applies on (re)start. A notebook the program wants Stopped, or
 * keeps Failed through ignoreChanges, or one stopped by its own stop time, is
 * not started for it: the size is recorded and the next
 * start sends it. A running one is stopped and started with the new spec; if
 * the platform refuses that start, it is started again on its old size and
 * the error says so (ResizeRefused). The wait for Stopped counts only answers
 * that show the stop; the start is waited for by settle, on `written`.
 */
export async function resize(p: NotebookPlatform, inputs: NotebookInputs, current: wire.Notebook, before?: Written): Promise<Resized> {
  const namespace = String(inputs.namespace);
  const desired = inputs.desiredState ?? defaults.desiredState;
  // Kept Stopped or Failed, or stopped by its own stop time: the size waits for the next start.
  const parked = desired !== "Running" || (current.status === "Stopped" && stoppedOnSchedule(current, p.client.timeZone.offset ?? 0));
  if (parked) return { current, atNextStart: true };
  const ref = { namespace, uuid: current.uuid, name: current.name ?? inputs.name };
  const wasRunning = current.status !== "Stopped";
  let stopped = current;
  if (wasRunning) {
    await p.write(namespace, current.uuid, () => p.client.stopNotebooks(namespace, [current.uuid]));
    stopped = await waitForStatus(p.listing, ref, "Stopped", {
      ...waitOptions(inputs),
      showsWrite: evidenceOf({ ...before, before: before?.before ?? current }),
    });
  }
  const spec = programSpec(inputs);
  try {
    await p.write(namespace, current.uuid, () => p.client.startNotebooks(namespace, wire.startRequest(current.uuid, spec.specs!, spec)));
  } catch (refusal) {
    if (!isRefusal(refusal)) throw refusal;
    const oldSku = current.replica_specs?.specs;
    let restarted = false;
    if (wasRunning && oldSku) {
      restarted = await p
        .write(namespace, current.uuid, () => p.client.startNotebooks(namespace, wire.startRequest(current.uuid, oldSku)))
        .then(
          () => true,
          () => false,
        );
    }
    throw new ResizeRefused(current.uuid, refusal, restarted);
  }
  // Settle waits for the start on evidence of it, and sends no second start on a list that still shows the notebook stopped.
  return { current: stopped, atNextStart: false, written: { before: stopped, spec: spec as Record<string, unknown>, started: true } };
}

/** Only a definite answer is a refusal: a start whose answer was lost may have been applied. */
function isRefusal(error: unknown): error is AicpError {
  return error instanceof AicpError && !error.outcomeUnknown && ["AICP_HTTP", "AICP_RET_CODE"].includes(error.code);
}
