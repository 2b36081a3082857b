/**
 * Lifecycle of a ResourceGroup. Name, description, pod types and the customize
 * flag update in place (platform-api B1, update resource group); a new
 * `skuId` replaces the group.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceGroup as WireGroup } from "../../client/wire";
import { groupUpdateRequest, resourceGroupKind } from "../../client/wire/resource-group";
import { AicpError } from "../../client/errors";
import { currentClient } from "../context";
import { compact } from "../inputs";
import { warn } from "../engine-log";
import { partlyCreated } from "../create-errors";
import { createOnce, UnconfirmedCreate } from "../create-once";
import { confirmedGroup, groupNameHolders, groupPastWindow, groupUnconfirmed, recentCreateAge, resolveGroup } from "./lookup";
import { groupMarkOf, ownedElsewhere, refuseOwnedElsewhere, withGroupMark, type Claim } from "../ownership";
import { proveKeysActFor } from "../account-proof";
import { deleteAndConfirm, deleteTimeoutMs } from "./delete";
import { currentTimings } from "../timing";

import { outputs, requestOf, type ResourceGroupInputs, type ResourceGroupOutputs } from "./shape";
import { planAdoption, plannedGroupDiff } from "./preview";

export { check, diff, plannedGroupDiff } from "./preview";
export type { ResourceGroupInputs, ResourceGroupOutputs } from "./shape";

export async function create(inputs: ResourceGroupInputs): Promise<pulumi.dynamic.CreateResult<ResourceGroupOutputs>> {
  if (inputs.adoptId) {
    const { group, program } = await planAdoption(inputs);
    // Always updated: the update writes this resource's mark into the description.
    return { id: group.rg_id, outs: (await updateGroup(group.rg_id, outputs(program, group), program)).outs! };
  }
  const client = currentClient();
  const w = requestOf(inputs);
  const mark = inputs.ownerMark;
  try {
    const { object: group, adopted } = await createOnce<WireGroup>({
      ...groupNameHolders(w.name, mark),
      send: () => client.createResourceGroup({ ...w, description: mark === undefined ? w.description : withGroupMark(w.description, mark) }),
      remove: (g) => client.deleteResourceGroup(g.rg_id),
      watchMs: currentTimings().createWatchMs,
    });
    if (!adopted) return { id: group.rg_id, outs: outputs({ ...inputs, createAnsweredAt: new Date().toISOString() }, group) };
    // Made by an interrupted earlier run, perhaps before the program changed: match the program now.
    const recordedNow = outputs(inputs, group);
    if (plannedGroupDiff(group.rg_id, recordedNow, inputs).changes) {
      if (recordedNow.skuId !== inputs.skuId) {
        const reason =
          `adopted resource group ${group.rg_id} (made by an interrupted earlier run of this resource) has skuId ${recordedNow.skuId}, which ` +
          `replaces it; run \`pulumi up\` again to replace it.`;
        throw partlyCreated("resource group", reason, group.rg_id, { ...recordedNow, __provider: (inputs as { __provider?: string }).__provider });
      }
      return { id: group.rg_id, outs: (await updateGroup(group.rg_id, recordedNow, inputs)).outs! };
    }
    return { id: group.rg_id, outs: recordedNow };
  } catch (error) {
    if (!(error instanceof UnconfirmedCreate)) throw error;
    // The state records the create as unconfirmed; the next run resolves it by the mark.
    const properties = { ...compact({ ...inputs, name: w.name }), createSentAt: error.sentAt };
    throw partlyCreated("resource group", error, error.provisionalId, properties);
  }
}

export async function read(id: string, props: ResourceGroupOutputs): Promise<pulumi.dynamic.ReadResult<ResourceGroupOutputs>> {
  const resolved = await resolveGroup(id, props, 0);
  // An unconfirmed create stays recorded, past its window too: it may still appear.
  if ("pending" in resolved) return { id, props };
  if ("pastWindow" in resolved) {
    await warn(groupPastWindow(id, props, resolved.pastWindow, resolved.unproven).message);
    return { id, props };
  }
  const group = resolved.found ?? (await confirmedGroup(resolved.rgId));
  if (!group && (props as { readById?: unknown }).readById === true) {
    throw new AicpError("AICP_NOT_FOUND", `ResourceGroup.get: this account holds no resource group ${id} (getResourceTemplates and the console list them).`);
  }
  // An empty id tells the engine the group is gone, so refresh drops it: two lookups, a pause apart, agreed,
  // by keys that act for the group's owner (another account's see nothing of it), and not so soon after its
  // create that the platform may not list it yet (a dropped group would be made again by the next up).
  if (!group) {
    await proveKeysActFor(props.userId, `resource group ${id}`);
    const age = recentCreateAge(props);
    if (age !== undefined) {
      await warn(
        `resource group ${id} is not listed, but it was created ${Math.round(age / 1000)} s ago and a platform may list a new group late; it stays ` +
          "recorded. Refresh again later to drop it if it is gone.",
      );
      return { id, props };
    }
    return { id: "", props: {} as ResourceGroupOutputs };
  }
  const { importAs, ...recordedProps } = props as ResourceGroupOutputs & Claim;
  // Read, never refused (a get reads anyone's group); an update or delete of another resource's group is.
  const foreign = ownedElsewhere("resource group", group.rg_id, groupMarkOf(group.description), props);
  if (foreign) await warn(foreign.message);
  return { id: group.rg_id, props: outputs(typeof importAs === "string" ? { ...recordedProps, ownerMark: importAs } : recordedProps, group) };
}

export async function update(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.UpdateResult<ResourceGroupOutputs>> {
  return updateGroup(id, olds, news);
}

/** The update itself; a create that adopts or takes over calls it too, before the engine has recorded anything (so the journal stays). */
async function updateGroup(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.UpdateResult<ResourceGroupOutputs>> {
  const client = currentClient();
  const resolved = await resolveGroup(id, olds, currentTimings().createWatchMs);
  if ("pending" in resolved) throw groupUnconfirmed(olds, resolved.pending, resolved.unproven);
  // Never a second create because a timer ran out: the first may still appear.
  if ("pastWindow" in resolved) throw groupPastWindow(id, olds, resolved.pastWindow, resolved.unproven);
  const mark = olds.ownerMark ?? news.ownerMark;
  // The update rewrites the description, mark included: never over a mark it has not seen. Asked twice: one answer that omits the group proves nothing.
  const live = resolved.found ?? (await confirmedGroup(resolved.rgId));
  if (!live) {
    const age = recentCreateAge(olds);
    throw new AicpError(
      "AICP_NOT_FOUND",
      `resource group ${resolved.rgId} was not found by two lookups a pause apart, so it was not updated (its description carries the mark that says ` +
        "whose it is); nothing was changed. " +
        (age === undefined
          ? "Run `pulumi refresh` to record what the platform holds, then `pulumi up`."
          : `It was created ${Math.round(age / 1000)} s ago, and a platform may list a new group late: run \`pulumi up\` again in a few minutes.`),
    );
  }
  refuseOwnedElsewhere("resource group", live.rg_id, groupMarkOf(live.description), { ownerMark: mark });
  const text = news.description ?? resourceGroupKind.fields.description.default;
  await client.updateResourceGroup(groupUpdateRequest(resolved.rgId, news, mark === undefined ? text : withGroupMark(text, mark)));
  const group = await client.getResourceGroup(resolved.rgId);
  return { outs: outputs({ ...news, ownerMark: mark, createAnsweredAt: olds.createAnsweredAt }, group ?? { rg_id: resolved.rgId }) };
}

export async function remove(id: string, props: ResourceGroupOutputs): Promise<void> {
  const resolved = await resolveGroup(id, props ?? {}, currentTimings().createWatchMs);
  // Destroy never reports a group deleted while its create may still appear.
  if ("pending" in resolved) throw groupUnconfirmed(props, resolved.pending, resolved.unproven);
  if ("pastWindow" in resolved) throw groupPastWindow(id, props, resolved.pastWindow, resolved.unproven);
  // Asked twice before a delete goes out unchecked: one answer that omits the group proves nothing.
  const live = resolved.found ?? (await confirmedGroup(resolved.rgId));
  if (live) refuseOwnedElsewhere("resource group", live.rg_id, groupMarkOf(live.description), props ?? {});
  // Not seen: another account's keys see nothing of the owner's, so prove these are the owner's before "gone".
  else await proveKeysActFor(props?.userId, `resource group ${resolved.rgId}`);
  await deleteAndConfirm(resolved.rgId, deleteTimeoutMs(props ?? {}));
}
