/**
 * Lifecycle of a ResourceGroup. Name, description, pod types and the customize
 * flag update in place (platform-api B1, update resource group); a new
 * `skuId` replaces the group.
 */
import type { DiffWithProperties } from "../diff-result";
import type * as pulumi from "@pulumi/pulumi";
import * as wire from "../../client/wire";
import type { ResourceGroup as WireGroup } from "../../client/wire";
import {
  groupCreateRequest,
  groupFieldOfWire,
  groupFieldsChanging,
  groupPlatformOutputs,
  groupProgramOf,
  groupUpdateRequest,
  resourceGroupKind,
  type GroupProgram,
} from "../../client/wire/resource-group";
import { AicpError, asOneLine } from "../../client/errors";
import { currentClient, settingsCheckable } from "../context";
import { camelPath, changedKeys, compact, resolveMark, resolveName, unknownPaths, withoutUnknowns, type CheckFailure } from "../inputs";
import { warn } from "../engine-log";
import { partlyCreated } from "../create-errors";
import { createOnce, isProvisional, nameHeldByAnother, UnconfirmedCreate } from "../create-once";
import { confirmedGroup, groupNameHolders, groupPastWindow, groupUnconfirmed, recentCreateAge, resolveGroup } from "./lookup";
import { groupMarkLength, groupMarkOf, ownedElsewhere, refuseOwnedElsewhere, withGroupMark, withoutGroupMark, type Claim } from "../ownership";
import { proveKeysActFor } from "../account-proof";
import { deleteAndConfirm, deleteTimeoutMs } from "./delete";
import { currentTimings } from "../timing";

/** Inputs as the SDK passes them: the kind's fields (wire/resource-group.ts resourceGroupKind) and the provider's own. */
export type ResourceGroupInputs = Partial<GroupProgram> &
  Pick<GroupProgram, "skuId" | "podTypes"> & {
    logicalName: string;
    /** Suffix of the auto-name, derived by the SDK (see sdk/forward.ts). */
    autoNameSuffix?: string;
    autoNamed?: boolean;
    /** This resource's mark, derived by the SDK and kept once recorded (see ownership.ts). */
    ownerMark?: string;
    /** rgId of an existing group to take over at create (see planAdoption). */
    adoptId?: string;
    /** Paths of the arguments the program marked secret, sent by the SDK (sdk/secret-paths.ts) and recorded in the outputs. */
    secretInputs?: string[];
  };

/** What the state records: the inputs, the group's id, and the platform's outputs (null where it sent none). */
export type ResourceGroupOutputs = ResourceGroupInputs & {
  name: string;
  rgId: string;
  createSentAt?: string;
  readById?: boolean;
  /** When this machine had the create's answer (ISO 8601, its own clock): an age no platform zone or clock skews (recentCreateAge). */
  createAnsweredAt?: string;
} & wire.GroupFieldsRecorded;

const inPlace = groupFieldsChanging("inPlace");
const replacing = groupFieldsChanging("replace");

/** The create request's fields that check validates (the mark is appended later, within the room check keeps for it). */
function requestOf(inputs: ResourceGroupInputs) {
  return groupCreateRequest(inputs, inputs.description ?? resourceGroupKind.fields.description.default);
}

/** Failures of the create request, named by the program's properties. */
function requestFailures(inputs: ResourceGroupInputs): CheckFailure[] {
  const result = wire.createResourceGroupRequest.safeParse(requestOf(inputs));
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    const property = camelPath(head === undefined ? [] : [groupFieldOfWire(String(head)), ...rest]) || "(inputs)";
    return { property, reason: `${property} ${issue.message}` };
  });
}

export async function check(olds: Partial<ResourceGroupOutputs>, news: ResourceGroupInputs): Promise<pulumi.dynamic.CheckResult<ResourceGroupInputs>> {
  const naming = resolveName(news, olds);
  const defaults = { description: resourceGroupKind.fields.description.default, customizeEnable: resourceGroupKind.fields.customizeEnable.default };
  const inputs: ResourceGroupInputs = {
    ...news,
    ...naming,
    description: news.description ?? defaults.description,
    customizeEnable: news.customizeEnable ?? defaults.customizeEnable,
  };
  const mark = resolveMark(news, olds);
  if (mark === undefined) delete inputs.ownerMark;
  else inputs.ownerMark = mark;
  const failures: CheckFailure[] = [];
  // The mark goes at the end of the description (ownership.ts): the program's text gets the rest of the platform's 1024.
  const room = 1024 - groupMarkLength;
  if (typeof news.description === "string" && groupMarkOf(news.description) !== undefined) {
    failures.push({ property: "description", reason: "description must not end with `[pulumi-aicp <hex>]`: the provider keeps this resource's mark there" });
  }
  if (typeof news.description === "string" && news.description.length > room) {
    failures.push({
      property: "description",
      reason: `description must be at most ${room} characters (the platform's 1024, less ${groupMarkLength} for the provider's ownership mark)`,
    });
  }
  if (news.customizeEnable !== undefined && typeof news.customizeEnable !== "boolean") {
    failures.push({ property: "customizeEnable", reason: "customizeEnable must be a boolean" });
  }
  if (news.adoptId !== undefined && (typeof news.adoptId !== "string" || news.adoptId === "")) {
    failures.push({ property: "adoptId", reason: "adoptId must be the rgId of an existing group: a non-empty string" });
  }
  const reported = new Set(failures.map((f) => f.property));
  failures.push(...requestFailures(inputs).filter((f) => !reported.has(f.property)));
  const known = withoutUnknowns(failures, news);
  // No undefined members: the engine cannot encode them and would print only "Unexpected struct type".
  if (known.length > 0) return { inputs: compact(inputs), failures: known };
  // A create under a pinned name: a new resource's (not a take-over), or the replacement of a renamed one.
  const pinned = requestOf(inputs).name;
  const createsUnderPin = !inputs.autoNamed && (Object.keys(olds).length === 0 ? !inputs.adoptId : olds.name !== pinned);
  if (createsUnderPin && settingsCheckable() && unknownPaths(inputs).length === 0) {
    // A preview refuses a pinned name the create would refuse (create-once.ts), from one read; nothing is written.
    const held = await nameHeldByAnother(groupNameHolders(pinned, inputs.ownerMark), Object.keys(olds).length === 0);
    if (held) throw held;
  }
  if (!inputs.adoptId || unknownPaths(inputs).length > 0) return { inputs: compact(inputs) };
  // adoptId is read at create only: an existing resource (and the create of its replacement) ignores it.
  if (Object.keys(olds).length > 0) {
    const { adoptId: _ignored, ...rest } = inputs;
    return { inputs: compact(rest) };
  }
  // A take-over is shown before it happens; one that will be refused, or a lookup that fails, fails the preview.
  try {
    const plan = await planAdoption(inputs);
    await warn(
      `ResourceGroup ${inputs.logicalName} will take over group ${inputs.adoptId} (${plan.group.name ?? "unnamed"}), ` +
        `${plan.changes.length > 0 ? `change ${plan.changes.join(", ")} in place` : "change nothing the program sets"} and write this resource's mark into ` +
        `its description.`,
    );
    // An auto-named resource keeps the group's name.
    return { inputs: compact(plan.program) };
  } catch (error) {
    const reason = error instanceof AicpError ? asOneLine(error).message : String(error);
    return {
      inputs: compact(inputs),
      failures: [{ property: "adoptId", reason: `ResourceGroup ${inputs.logicalName} cannot take over ${inputs.adoptId}: ${reason}` }],
    };
  }
}

/**
 * Whether the group `adoptId` names may be taken over, and what that changes.
 * Refused, with nothing changed, when it does not exist, carries another
 * Pulumi resource's mark, or has another skuId (which would replace it).
 */
async function planAdoption(inputs: ResourceGroupInputs): Promise<{ group: WireGroup; program: ResourceGroupInputs; changes: string[] }> {
  const id = String(inputs.adoptId);
  const group = await currentClient().getResourceGroup(id);
  if (!group) throw new AicpError("AICP_NOT_FOUND", `adoptId ${id}: this account holds no resource group with this rgId; nothing was changed.`);
  const mark = groupMarkOf(group.description);
  if (mark !== undefined && mark !== inputs.ownerMark) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${id}: group ${group.name ?? id} was made by another Pulumi resource (its description carries that resource's mark) and is managed there; ` +
        `nothing was changed.`,
    );
  }
  const program = inputs.autoNamed && group.name ? { ...inputs, name: group.name } : inputs;
  const recordedNow = outputs(program, group);
  if (recordedNow.skuId !== program.skuId) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${id}: the group has skuId ${recordedNow.skuId} and the program ${program.skuId}; a new skuId replaces a group, so it is not taken over; ` +
        `nothing was changed.`,
    );
  }
  const { updates } = diffGroup(recordedNow, program);
  return { group, program, changes: updates };
}

export async function diff(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<DiffWithProperties> {
  const found = plannedGroupDiff(id, olds, news);
  if ((found.replaces?.length ?? 0) > 0) await refuseReplacementUnderHeldName(olds, news, found.replaces!);
  return found;
}

/**
 * A replacement deletes the old group first; its create then refuses a name
 * another group holds (create-once.ts). Under a pinned name that one holds
 * (a group made in the console), the preview fails here, before anything is
 * deleted. Checked when the diff plans a replacement: check cannot know.
 */
async function refuseReplacementUnderHeldName(olds: ResourceGroupOutputs, news: ResourceGroupInputs, replaces: string[]): Promise<void> {
  if (news.autoNamed || !settingsCheckable() || unknownPaths(news).length > 0) return;
  const holders = groupNameHolders(requestOf(news).name, news.ownerMark ?? olds.ownerMark);
  const held = await nameHeldByAnother({ ...holders, findByName: async () => (await holders.findByName()).filter((g) => g.rg_id !== olds.rgId) });
  if (!held) return;
  throw new AicpError(
    held.code,
    `ResourceGroup ${news.logicalName} would be replaced (${replaces.join(", ")}), which deletes group ${olds.rgId} first, and its create would then be ` +
      `refused: ${held.message}`,
  );
}

/**
 * What diff plans, from the state and the program alone (no request): create
 * calls it too, before the engine has recorded anything (so the journal stays).
 */
export function plannedGroupDiff(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): DiffWithProperties {
  // An unconfirmed create is resolved by an update, never by a second create.
  if (isProvisional(id) && !olds.rgId) return { changes: true, replaces: [] };
  const { replaces, updates } = diffGroup(olds, news);
  // Every replacement deletes first (also one forced by `--replace`): it keeps the name and the mark, so a
  // group created beside the old one would adopt the old one, which is then deleted.
  return { changes: replaces.length + updates.length > 0, replaces, diffs: [...updates, ...replaces], deleteBeforeReplace: true };
}

/** Properties that differ between the recorded outputs and the program, split by how they apply. */
function diffGroup(olds: ResourceGroupOutputs, news: ResourceGroupInputs): { replaces: string[]; updates: string[] } {
  const replaces = changedKeys(olds, news, replacing);
  const updates = changedKeys(
    { ...olds, podTypes: [...(olds.podTypes ?? [])].sort() } as Record<string, unknown>,
    { ...news, podTypes: [...(news.podTypes ?? [])].sort() } as Record<string, unknown>,
    inPlace,
  );
  return { replaces, updates };
}

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

/** The outputs: the inputs, overlaid with what the platform returned, and when this machine had the create's answer. */
function outputs(inputs: ResourceGroupInputs & Pick<ResourceGroupOutputs, "createAnsweredAt">, group: WireGroup): ResourceGroupOutputs {
  return compact({ ...rawOutputs(inputs, group), createAnsweredAt: inputs.createAnsweredAt });
}

function rawOutputs(inputs: ResourceGroupInputs, group: WireGroup): ResourceGroupOutputs {
  const live = groupProgramOf(group);
  // The program's value where the platform sent none; the mark is the provider's, never the description's text.
  const program = Object.fromEntries(
    (Object.keys(resourceGroupKind.fields) as Array<keyof GroupProgram>).map((key) => [
      key,
      live[key] ??
        inputs[key] ??
        (key in resourceGroupKind.fields && "default" in resourceGroupKind.fields[key] ? resourceGroupKind.fields[key].default : undefined),
    ]),
  );
  if (typeof live.description === "string") program.description = withoutGroupMark(live.description);
  return {
    logicalName: inputs.logicalName,
    autoNamed: inputs.autoNamed,
    autoNameSuffix: inputs.autoNameSuffix,
    ownerMark: inputs.ownerMark,
    // Kept, so that a refresh or destroy in a process that never ran check still leaves them out of its messages (secrets.ts).
    ...(inputs.secretInputs ? { secretInputs: inputs.secretInputs } : {}),
    ...program,
    // null, not absent, where the platform gives no value: an output missing from the state is unknown in every preview.
    ...groupPlatformOutputs(group),
    rgId: group.rg_id,
  } as ResourceGroupOutputs;
}
