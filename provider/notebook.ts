/**
 * Lifecycle of a Notebook (container instance).
 *
 * create goes through the create-once path (create-once.ts): a notebook listed
 * under the name is adopted only when it carries this resource's mark, and a
 * create whose answer was lost is recorded under a provisional id that later
 * runs resolve by the mark, never by a second create.
 * delete composes documented operations: stop, set the auto-delete time to
 * now, wait until the list no longer shows the notebook. Absence is never
 * read from one listing: see confirmedLookup.
 */
import type { DiffWithProperties } from "./diff-result";
import type * as pulumi from "@pulumi/pulumi";
import { AicpError } from "../client/errors";
import type * as wire from "../client/wire";
import { currentClient, currentListing, currentSettings, learnedZone } from "./context";
import { checkNotebook, defaults, diffNotebook, wireBody, type NotebookInputs } from "./notebook-inputs";
import { warn } from "./engine-log";
import { NotebookFailed, type NotebookRef, waitForRemoval } from "./notebook-wait";
import { applyInPlace, beforeWrites, imageWritten, notebookOutputs, resize, ResizeRefused, settle, waitOptions, withWrites } from "./notebook-update";
import { inDesiredState } from "./notebook-state";
import type { NotebookListing } from "./notebook-listing";
import { createOnce, isProvisional, lookedUpTwice, UnconfirmedCreate } from "./create-once";
import { settleWithState } from "./create-journal";
import { digestKey, outputs, recorded, refreshedInputs, type NotebookOutputs } from "./notebook-outputs";
import { compact, unknownPaths, withoutUnknowns } from "./inputs";
import { nameOf, neverRanReplacement, previewAdoption, warnOfOutsideSchedules } from "./notebook-preview";
import { isRecordedSecret } from "./secrets";
import {
  configuredZone,
  lastSeen,
  learnZoneFromState,
  notebookPastWindow,
  notebookTarget,
  notebookUnconfirmed,
  nowOnTheWire,
  partlyCreatedNotebook,
  planAdoption,
  refreshAgeMs,
  resolveNotebook,
  resolvedUuid,
} from "./notebook-create";
import { notebookMarkOf, ownedElsewhere, refuseOwnedElsewhere, type Claim } from "./ownership";
import { currentTimings } from "./timing";

export { overlay, type NotebookOutputs } from "./notebook-outputs";
export type { NotebookInputs } from "./notebook-inputs";

/** The client, the shared listing, and a write step that invalidates the listing after it. */
function platform() {
  const client = currentClient();
  const listing = currentListing();
  const write = async <T>(namespace: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } finally {
      listing.invalidate(namespace);
    }
  };
  return { client, listing, write };
}
type Platform = ReturnType<typeof platform>;

export async function check(olds: Partial<NotebookInputs>, news: NotebookInputs): Promise<pulumi.dynamic.CheckResult<NotebookInputs>> {
  const { inputs: checked, failures } = checkNotebook(olds, news, currentSettings(), learnedZone());
  // No undefined members: the engine cannot encode them and would print only "Unexpected struct type".
  const inputs = compact(checked);
  const known = withoutUnknowns(failures, news);
  if (known.length > 0) return { inputs, failures: known };
  if (!inputs.adoptId || unknownPaths(inputs).length > 0) return { inputs };
  // adoptId is read at create only: an existing resource (and the create of its replacement) ignores it.
  if (Object.keys(olds).length > 0) {
    if (olds.adoptId !== inputs.adoptId)
      await warn(`Notebook ${inputs.logicalName}: adoptId is read only when the resource is created; the change to ${inputs.adoptId} is ignored.`);
    const { adoptId: _ignored, ...rest } = inputs;
    return { inputs: rest as NotebookInputs };
  }
  return previewAdoption(inputs);
}

export async function diff(id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<DiffWithProperties> {
  // The state holds this resource: its create needs no journal entry (create-journal.ts).
  settleWithState(olds.ownerMark, id, olds.createSentAt);
  const found = diffNotebook(olds, news, digestKey(), configuredZone());
  const updates = found.updates;
  let replaces = found.replaces;
  await warnOfOutsideSchedules(olds, news);
  const replacing = (await neverRanReplacement(id, olds, news)) ? [...new Set([...replaces, "desiredState"])] : replaces;
  // A replacement creates, and a create sends the registry password, which a digest kept by ignoreChanges does not hold.
  if (replacing.length > 0 && isRecordedSecret(news.customImageSecret)) {
    throw new AicpError(
      "AICP_VALIDATION",
      `notebook ${nameOf(olds) ?? id} would be replaced (${replacing.join(", ")}), and its create sends the registry password; customImageSecret is kept ` +
        `from the state (ignoreChanges), which holds only a digest: give customImageSecret.password or passwordFromEnv in the program. Nothing was changed.`,
    );
  }
  replaces = replacing;
  // An unconfirmed create is resolved by an update (see update), never by a second create.
  if (isProvisional(id) && !resolvedUuid(olds)) return { changes: true, replaces: [], diffs: updates };
  // Every replacement deletes first, also one forced by `--replace` or replaceOnChanges: it keeps the name
  // and the mark, so a new notebook created beside the old one would adopt the old one, which is then deleted.
  return { changes: updates.length + replaces.length > 0, replaces, diffs: [...updates, ...replaces], deleteBeforeReplace: true };
}

export async function create(requested: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
  const p = platform();
  // A desiredState "Failed" kept by ignoreChanges reaches a replacement's create: a new notebook is started.
  const inputs = requested.desiredState === "Failed" ? { ...requested, desiredState: defaults.desiredState } : requested;
  if (inputs.adoptId) return adoptById(p, inputs);
  const { object: created, adopted } = await createOrRecord(p, inputs);
  try {
    const current = adopted ? await matchProgram(p, inputs, created) : created;
    const settled = await settle(p, inputs, current);
    return { id: created.uuid, outs: outputs(inputs, settled) };
  } catch (error) {
    // Created but not ready: Pulumi records it with this id (as last seen), so nothing is orphaned. One this run
    // made that failed before its first Running never ran (a timeout or a cancel proves nothing of the sort).
    const made: NotebookInputs = Object.assign({}, inputs, { neverRan: !adopted && error instanceof NotebookFailed });
    throw partlyCreatedNotebook(error, created.uuid, { ...outputs(made, lastSeen(error) ?? created), __provider: inputs.__provider });
  }
}

/** Takes over the notebook `adoptId` names (notebook-create.ts): refused with nothing changed, or changed in place to match the program. */
async function adoptById(p: Platform, inputs: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
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
    let current = plan.notebook;
    if (plan.changes.length > 0) {
      const recordedNow = outputs(program, current);
      await updateNotebook(uuid, recordedNow, { ...program, desiredState: recordedNow.desiredState as NotebookInputs["desiredState"] });
      current = (await p.listing.locate(String(program.namespace), uuid, current.name ?? undefined, 0)) ?? current;
    }
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
async function createOrRecord(p: Platform, inputs: NotebookInputs & { __provider?: string }): Promise<{ object: wire.Notebook; adopted: boolean }> {
  const body = wireBody(inputs);
  try {
    return await createOnce(notebookTarget(p.client, p.write, body, inputs.ownerMark, Math.min(waitOptions(inputs).timeoutMs, currentTimings().createWatchMs)));
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
async function matchProgram(p: Platform, inputs: NotebookInputs & { __provider?: string }, adopted: wire.Notebook): Promise<wire.Notebook> {
  const recordedNow = outputs(inputs, adopted);
  const { updates, replaces } = diffNotebook(recordedNow, inputs, digestKey(), p.client.timeZone.offset);
  if (replaces.length > 0) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adopted notebook ${adopted.uuid} (made by an interrupted earlier run of this resource) differs from the program in ${replaces.join(", ")}, ` +
        "which replaces it. It is recorded now; run `pulumi up` again to replace it.",
    );
  }
  if (updates.length === 0) return adopted;
  await updateNotebook(adopted.uuid, recordedNow, { ...inputs, desiredState: recordedNow.desiredState as NotebookInputs["desiredState"] });
  return (await p.listing.locate(String(inputs.namespace), adopted.uuid, adopted.name ?? undefined)) ?? adopted;
}

export async function read(id: string, props: NotebookOutputs): Promise<pulumi.dynamic.ReadResult<NotebookOutputs>> {
  const namespace = String(props.namespace ?? currentSettings().userId?.toLowerCase() ?? "");
  if (!namespace) return { id: "", props: {} as NotebookOutputs };
  settleWithState(props.ownerMark, id, props.createSentAt);
  const resolved = await resolveNotebook(currentClient(), id, props, 0);
  // An unconfirmed create stays recorded, past its window too: it may still appear.
  if ("pending" in resolved) return { id, props };
  if ("pastWindow" in resolved) {
    await warn(notebookPastWindow(id, props, resolved.pastWindow).message);
    return { id, props };
  }
  const found = resolved.found ?? (await confirmedLookup(currentListing(), { namespace, uuid: resolved.uuid, name: nameOf(props) }, refreshAgeMs));
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
  const outs = outputs(typeof importAs === "string" ? { ...recordedProps, ownerMark: importAs } : recordedProps, found, true);
  const inputs = refreshedInputs(outs);
  return inputs ? { id: found.uuid, props: outs, inputs: inputs as NotebookOutputs } : { id: found.uuid, props: outs };
}

export async function update(
  id: string,
  olds: NotebookOutputs,
  news: NotebookInputs & { __provider?: string },
): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  settleWithState(olds.ownerMark, id, olds.createSentAt);
  return updateNotebook(id, olds, news);
}

/** The update itself; a create that adopts calls it too, before the engine has recorded anything (so the journal stays). */
async function updateNotebook(
  id: string,
  olds: NotebookOutputs,
  news: NotebookInputs & { __provider?: string },
): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  const p = platform();
  const { client, listing } = p;
  const namespace = String(olds.namespace);
  const resolved = await resolveNotebook(client, id, olds, waitOptions(news).timeoutMs);
  if ("pending" in resolved) throw partlyCreatedNotebook(notebookUnconfirmed(olds, resolved.pending), id, { ...olds, __provider: news.__provider });
  // Never a second create because a timer ran out: the first may still appear.
  if ("pastWindow" in resolved) throw partlyCreatedNotebook(notebookPastWindow(id, olds, resolved.pastWindow), id, { ...olds, __provider: news.__provider });
  const uuid = resolved.uuid;
  // Confirmed just now: the create never waited for the desired state.
  const confirming = isProvisional(id) && !resolvedUuid(olds);
  const { updates } = diffNotebook(olds, news, digestKey(), client.timeZone.offset);
  const changed = new Set(updates);
  const ref = { namespace, uuid, name: nameOf(olds) };
  const before = beforeWrites(resolved.found ?? (await confirmedLookup(listing, ref)), ref, news, changed);
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
    return { outs: notebookOutputs(program, current, recordedSpec, Boolean(recordedSpec.replicaSpecs)) };
  } catch (error) {
    // A refused resize leaves the old size in the state, so reverting the program changes nothing more.
    const refused = error instanceof ResizeRefused;
    const kept = refused ? { replicaSpecs: olds.replicaSpecs as NotebookInputs["replicaSpecs"] } : recordedSpec;
    throw partlyCreatedNotebook(error, id, {
      ...notebookOutputs(program, lastSeen(error) ?? current, kept, !refused && Boolean(kept.replicaSpecs)),
      __provider: news.__provider,
    });
  }
}

export async function remove(id: string, props: NotebookOutputs): Promise<void> {
  const { client, listing, write } = platform();
  const namespace = String(props.namespace);
  settleWithState(props.ownerMark, id, props.createSentAt);
  const resolved = await resolveNotebook(client, id, props, 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds));
  // Destroy never reports a notebook deleted while its create may still appear.
  if ("pending" in resolved) throw notebookUnconfirmed(props, resolved.pending);
  if ("pastWindow" in resolved) throw notebookPastWindow(id, props, resolved.pastWindow);
  const ref = { namespace, uuid: resolved.uuid, name: nameOf(props) };
  const current = resolved.found ?? (await confirmedLookup(listing, ref));
  // Gone already: neither the list nor two direct lookups, a pause apart, show it.
  if (!current) return;
  refuseOwnedElsewhere("notebook", ref.uuid, notebookMarkOf(current.envs), props);
  // A delete step answered "not found" may race the notebook's own removal: gone only if the lookups agree.
  const step = async (send: () => Promise<void>) => {
    try {
      await write(namespace, send);
      return "done" as const;
    } catch (error) {
      if (error instanceof AicpError && error.isNotFound && !(await confirmedLookup(listing, ref))) return "gone" as const;
      throw error;
    }
  };
  if (current.status !== "Stopped" && (await step(() => client.stopNotebooks(namespace, [ref.uuid]))) === "gone") return;
  if ((await step(() => client.setDeleteTime(namespace, ref.uuid, nowOnTheWire()))) === "gone") return;
  await waitForRemoval(listing, ref, { timeoutMs: 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) });
}

/** The notebook from the listing or direct lookups, asked twice a pause apart before it counts as gone (create-once.ts). */
function confirmedLookup(listing: NotebookListing, ref: NotebookRef, maxAgeMs?: number): Promise<wire.Notebook | undefined> {
  return lookedUpTwice((again) => {
    if (again) listing.invalidate(ref.namespace);
    return listing.locate(ref.namespace, ref.uuid, ref.name, again ? 0 : maxAgeMs);
  });
}
