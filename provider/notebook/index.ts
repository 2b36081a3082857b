/**
 * A Notebook's lifecycle as one state machine: how a notebook comes to be
 * recorded, and how it leaves. check and diff are in notebook/preview.ts,
 * the update's writes, resize and waits in notebook/update.ts.
 *
 * - create sends the create at most once (create-once.ts): a notebook listed
 *   under the name is adopted only when it carries this resource's mark
 *   (ownership.ts), and matched to the program in place.
 * - A create whose answer was lost is recorded under a provisional id and
 *   what was sent (createSentAt); read, update and delete confirm it by the
 *   mark (resolveNotebook), never by a second create, and an update that
 *   confirms it records the uuid it found.
 * - adoptId takes over a notebook by uuid, refused with nothing changed when
 *   it is not ours to take (notebook/preview.ts planAdoption).
 * - delete composes documented operations: stop, set the auto-delete time to
 *   now, wait until the list no longer shows the notebook. Absence before
 *   those writes is never read from one listing: see confirmedLookup
 *   (notebook/listing.ts); after them, a walk and the lookup by the name
 *   both missing it end the wait (waitForRemoval).
 *
 * The private state these steps keep beside the platform's fields is
 * NotebookPrivateState (notebook/outputs.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { AicpError } from "../../client/errors";
import type * as wire from "../../client/wire";
import { nowOnTheWire } from "../../client/times";
import { currentClient, currentListing, currentSettings, notebookPlatform } from "../context";
import { diffNotebook } from "./diff";
import { defaults, wireBody, type NotebookInputs } from "./inputs";
import { warn } from "../engine-log";
import { NotebookFailed, waitForRemoval } from "./wait";
import { applyUpdate, settle, waitOptions } from "./update";
import { confirmedLookup, listingNow, refreshAgeMs, type NotebookPlatform } from "./listing";
import { createOnce, isProvisional, otherCreates, UnconfirmedCreate } from "../create-once";
import { notebookNameHolders } from "./names";
import { digestKey, learnZoneFromState, outputs, recorded, refreshedInputs, resolvedUuid, type NotebookOutputs } from "./outputs";
import { nameOf, planAdoption } from "./preview";
import { removeUnrecorded, reportStrays, straysOf } from "./strays";
import { lastSeen, notebookPastWindow, notebookUnconfirmed, partlyCreatedNotebook } from "./errors";
import { notebookMarkOf, ownedElsewhere, refuseOwnedElsewhere, type Claim } from "../ownership";
import { currentTimings } from "../timing";

import { notebookTarget, resolveNotebook } from "./targets";

export { check, diff } from "./preview";
export { overlay, type NotebookOutputs } from "./outputs";
export type { NotebookInputs } from "./inputs";

export async function create(requested: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
  const p = notebookPlatform();
  // A desiredState "Failed" kept by ignoreChanges reaches a replacement's create: a new notebook is started.
  const inputs = requested.desiredState === "Failed" ? { ...requested, desiredState: defaults.desiredState } : requested;
  if (inputs.adoptId) return adoptById(p, inputs);
  const { object: created, adopted } = await createOrRecord(p, inputs);
  let recorded = created;
  try {
    const current = adopted ? await matchProgram(p, inputs, created) : created;
    let settled: wire.Notebook;
    try {
      settled = await settle(p, inputs, current);
    } catch (error) {
      // A run racing this one may have removed this create's notebook, keeping one made first (keepFirstMade): that one is recorded.
      recorded = adopted ? created : await keepFirstMade(p, inputs, created);
      if (recorded.uuid === created.uuid) throw error;
      return { id: recorded.uuid, outs: outputs(inputs, await settle(p, inputs, await matchProgram(p, inputs, recorded))) };
    }
    recorded = adopted ? created : await keepFirstMade(p, inputs, settled);
    if (recorded.uuid === created.uuid) return { id: created.uuid, outs: outputs(inputs, settled) };
    return { id: recorded.uuid, outs: outputs(inputs, await settle(p, inputs, await matchProgram(p, inputs, recorded))) };
  } catch (error) {
    // Created but not ready: Pulumi records it with this id (as last seen), so nothing is orphaned. One this run
    // made that failed before its first Running never ran (a timeout or a cancel proves nothing of the sort).
    const made: NotebookInputs = Object.assign({}, inputs, { neverRan: !adopted && recorded === created && error instanceof NotebookFailed });
    throw partlyCreatedNotebook(error, recorded.uuid, { ...outputs(made, lastSeen(error) ?? recorded), __provider: inputs.__provider });
  }
}

/**
 * The notebook this create records where another create of the resource made one too (create-once.ts
 * otherCreates; docs/identity.md, "Convergence"): the first made is kept and the others removed, so that the run
 * ends with one notebook, and a run racing this one, applying the same rule to the same list, keeps the same.
 * `own` when no other shows, or when the lookup fails (the next refresh names what it missed: notebook/strays.ts).
 */
async function keepFirstMade(p: NotebookPlatform, inputs: NotebookInputs, own: wire.Notebook): Promise<wire.Notebook> {
  const namespace = String(inputs.namespace);
  const byName = notebookNameHolders(p.client, namespace, String(inputs.name), inputs.ownerMark, inputs.autoNameSuffix);
  const holders = { ...byName, findByName: () => p.listing.holdersOnceRunning(namespace, String(inputs.name), own.uuid, byName.findByName) };
  const others = await otherCreates(holders, own).catch(() => undefined);
  if (!others) return own;
  const { removed, failed } = await removeUnrecorded(p.client, p.write, namespace, others.remove);
  await warn(
    `this create of notebook '${String(inputs.name)}' made ${own.uuid}, and another create of this resource (a run killed on another runner, or ` +
      `racing this one) made one too: ${others.keep.uuid}, made first, is kept` +
      (removed.length > 0 ? `, and ${removed.join(", ")} removed` : "") +
      (failed.length > 0 ? `; removing ${failed.join(", ")} failed: delete it in the console once you have checked it is not in use` : "") +
      ".",
  );
  return others.keep;
}

/** Takes over the notebook `adoptId` names (notebook/preview.ts planAdoption): refused with nothing changed, or changed in place to match the program. */
async function adoptById(p: NotebookPlatform, inputs: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
  const plan = await planAdoption(p.listing, inputs, digestKey(), p.client.timeZone.offset);
  // check recorded the notebook's own name; a create that would record another is refused (a later diff would replace it).
  if (plan.inputs.name !== inputs.name) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${plan.notebook.uuid}: the notebook is named ${JSON.stringify(plan.inputs.name)}, the inputs ${JSON.stringify(inputs.name)}; run \`pulumi ` +
        `up\` again (preview looks the name up); nothing was changed.`,
    );
  }
  const program = inputs;
  const uuid = plan.notebook.uuid;
  try {
    const current = plan.changes.length > 0 ? await updateToProgram(p, program, plan.notebook) : plan.notebook;
    return { id: uuid, outs: outputs(program, await settle(p, program, current)) };
  } catch (error) {
    // Taken over: from here on the state holds it, whatever failed.
    throw partlyCreatedNotebook(error, uuid, { ...outputs(program, plan.notebook), __provider: inputs.__provider });
  }
}

/**
 * Sends the create at most once (create-once.ts). When its outcome stays
 * unknown, the error carries a provisional id and what was sent, so the state
 * remembers the create and the next run resolves it by its mark.
 */
async function createOrRecord(p: NotebookPlatform, inputs: NotebookInputs & { __provider?: string }): Promise<{ object: wire.Notebook; adopted: boolean }> {
  const body = wireBody(inputs);
  try {
    const watchMs = Math.min(waitOptions(inputs).timeoutMs, currentTimings().createWatchMs);
    return await createOnce(notebookTarget(p.client, p.write, body, inputs.ownerMark, watchMs, inputs.autoNameSuffix));
  } catch (error) {
    if (!(error instanceof UnconfirmedCreate)) throw error;
    throw partlyCreatedNotebook(error, error.provisionalId, { ...recorded(inputs), createSentAt: error.sentAt, __provider: inputs.__provider });
  }
}

/**
 * An adopted notebook was made by an earlier run of this resource, perhaps
 * before the program changed: what updates in place is applied now, and what
 * would replace it is refused (the engine records the notebook, and the next
 * `up` shows and applies the replacement).
 */
async function matchProgram(p: NotebookPlatform, inputs: NotebookInputs & { __provider?: string }, adopted: wire.Notebook): Promise<wire.Notebook> {
  const recordedNow = outputs(inputs, adopted);
  const { updates, replaces } = diffNotebook(recordedNow, inputs, digestKey(), p.client.timeZone.offset);
  if (replaces.length > 0) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adopted notebook ${adopted.uuid} (made by an interrupted earlier run of this resource) differs from the program in ${replaces.join(", ")}, ` +
        "which replaces it. It is recorded now; run `pulumi up` again to replace it.",
    );
  }
  return updates.length === 0 ? adopted : updateToProgram(p, inputs, adopted);
}

/**
 * Applies the program's in-place changes to a notebook taken over (before
 * the engine records anything, so the create journal keeps its entry), its
 * desired state left as it is for settle; then lists it again.
 */
async function updateToProgram(p: NotebookPlatform, program: NotebookInputs, notebook: wire.Notebook): Promise<wire.Notebook> {
  const recordedNow = outputs(program, notebook);
  const ref = { namespace: String(program.namespace), uuid: notebook.uuid, name: nameOf(recordedNow) };
  const news = { ...program, desiredState: recordedNow.desiredState as NotebookInputs["desiredState"] };
  await applyUpdate(p, { id: notebook.uuid, ref, confirming: false }, recordedNow, news);
  return (await p.listing.locate(ref.namespace, notebook.uuid, notebook.name ?? undefined)) ?? notebook;
}

export async function read(id: string, props: NotebookOutputs): Promise<pulumi.dynamic.ReadResult<NotebookOutputs>> {
  const namespace = String(props.namespace ?? currentSettings().userId?.toLowerCase() ?? "");
  if (!namespace) return { id: "", props: {} as NotebookOutputs };
  const resolved = await resolveNotebook(currentClient(), id, props, 0);
  // An unconfirmed create stays recorded, past its window too: it may still appear.
  if ("pending" in resolved) return { id, props };
  if ("pastWindow" in resolved) {
    await warn(notebookPastWindow(id, props, resolved.pastWindow, resolved.unproven).message);
    return { id, props };
  }
  // A refresh is one point in time and may read a walk a few seconds old; a get or an import is asked now.
  const askedAt = props.readById === true || typeof (props as Claim).importAs === "string" ? listingNow() : listingNow() - refreshAgeMs;
  const found = resolved.found ?? (await confirmedLookup(currentListing(), { namespace, uuid: resolved.uuid, name: nameOf(props) }, askedAt));
  if (!found && props.readById === true) {
    throw new AicpError("AICP_NOT_FOUND", `Notebook.get: namespace ${namespace} holds no notebook ${resolved.uuid} (getNotebooks lists them).`);
  }
  // An empty id tells the engine the notebook is gone, so refresh drops it; two direct lookups, a pause apart, agreed.
  if (!found) return { id: "", props: {} as NotebookOutputs };
  const { importAs, ...recordedProps } = props as NotebookOutputs & Claim;
  // Read, never refused (a get reads anyone's notebook); an update or delete of another resource's notebook is.
  const foreign = ownedElsewhere("notebook", found.uuid, notebookMarkOf(found.envs), props);
  if (foreign) await warn(foreign.message);
  learnZoneFromState(props.createdAt, found.created_at);
  if (props.readById !== true && typeof importAs !== "string") {
    const recordedHere = { namespace, name: nameOf(props), mark: props.ownerMark, stackPlace: props.autoNameSuffix, uuid: found.uuid };
    await reportStrays(await straysOf(currentClient(), currentListing(), recordedHere, askedAt), recordedHere);
  }
  const outs = outputs(typeof importAs === "string" ? { ...recordedProps, ownerMark: importAs } : recordedProps, found, true);
  const inputs = refreshedInputs(outs);
  return inputs ? { id: found.uuid, props: outs, inputs: inputs as NotebookOutputs } : { id: found.uuid, props: outs };
}

export async function update(
  id: string,
  olds: NotebookOutputs,
  news: NotebookInputs & { __provider?: string },
): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  const p = notebookPlatform();
  const resolved = await resolveNotebook(p.client, id, olds, waitOptions(news).timeoutMs);
  if ("pending" in resolved)
    throw partlyCreatedNotebook(notebookUnconfirmed(olds, resolved.pending, resolved.unproven), id, { ...olds, __provider: news.__provider });
  // Never a second create because a timer ran out: the first may still appear.
  if ("pastWindow" in resolved)
    throw partlyCreatedNotebook(notebookPastWindow(id, olds, resolved.pastWindow, resolved.unproven), id, { ...olds, __provider: news.__provider });
  const ref = { namespace: String(olds.namespace), uuid: resolved.uuid, name: nameOf(olds) };
  return applyUpdate(p, { id, ref, found: resolved.found, confirming: isProvisional(id) && !resolvedUuid(olds) }, olds, news);
}

export async function remove(id: string, props: NotebookOutputs): Promise<void> {
  const startedAt = listingNow();
  const uuid = await removeRecorded(id, props, startedAt);
  const { client, listing } = notebookPlatform();
  const recordedHere = { namespace: String(props.namespace), name: nameOf(props), mark: props.ownerMark, stackPlace: props.autoNameSuffix, uuid };
  await reportStrays(await straysOf(client, listing, recordedHere, startedAt), recordedHere);
}

/** Deletes the notebook the state records; returns its uuid. */
async function removeRecorded(id: string, props: NotebookOutputs, startedAt: number): Promise<string> {
  const { client, listing, write } = notebookPlatform();
  const namespace = String(props.namespace);
  const resolved = await resolveNotebook(client, id, props, 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds));
  // Destroy never reports a notebook deleted while its create may still appear.
  if ("pending" in resolved) throw notebookUnconfirmed(props, resolved.pending, resolved.unproven);
  if ("pastWindow" in resolved) throw notebookPastWindow(id, props, resolved.pastWindow, resolved.unproven);
  const ref = { namespace, uuid: resolved.uuid, name: nameOf(props) };
  // A destroy is one point in time, as a refresh is: one walk up to refreshAgeMs old answers for all its deletes, which read the
  // mark of it (it never changes). A status that would leave the stop out is read again, asked now.
  const snapshot = resolved.found ?? (await confirmedLookup(listing, ref, startedAt - refreshAgeMs));
  // Gone already: neither the list nor two direct lookups, a pause apart, show it.
  if (!snapshot) return ref.uuid;
  const current = snapshot.status === "Stopped" ? ((await listing.locate(namespace, ref.uuid, snapshot.name ?? ref.name)) ?? snapshot) : snapshot;
  refuseOwnedElsewhere("notebook", ref.uuid, notebookMarkOf(current.envs), props);
  // A delete step answered "not found" may race the notebook's own removal: gone only if the lookups agree.
  const step = async (send: () => Promise<void>) => {
    try {
      await write(namespace, ref.uuid, send);
      return "done" as const;
    } catch (error) {
      if (error instanceof AicpError && error.isNotFound && !(await confirmedLookup(listing, ref))) return "gone" as const;
      throw error;
    }
  };
  if (current.status !== "Stopped" && (await step(() => client.stopNotebooks(namespace, [ref.uuid]))) === "gone") return ref.uuid;
  if ((await step(() => client.setDeleteTime(namespace, ref.uuid, nowOnTheWire()))) === "gone") return ref.uuid;
  // Looked up by the name the platform just showed: the state's may be older (a rename in the console).
  const removing = { ...ref, name: current.name ?? ref.name };
  await waitForRemoval(listing, removing, { timeoutMs: 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) });
  return ref.uuid;
}
