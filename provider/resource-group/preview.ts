/**
 * A ResourceGroup's check and diff: the inputs validated before any request,
 * a name held by another group refused in the preview, an adoption planned,
 * and which changes update in place or replace.
 */
import type { DiffWithProperties } from "../diff-result";
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceGroup as WireGroup } from "../../client/wire";
import { resourceGroupKind } from "../../client/wire/resource-group";
import { AicpError, asOneLine } from "../../client/errors";
import { currentClient, settingsCheckable } from "../context";
import { changedKeys, compact, ofDerivedName, resolveMark, resolveName, unknownPaths, withoutUnknowns, type CheckFailure } from "../inputs";
import { warn } from "../engine-log";
import { isProvisional, nameHeldByAnother } from "../create-once";
import { groupNameHolders } from "./lookup";
import { groupMarkLength, groupMarkOf } from "../ownership";

import { inPlace, outputs, replacing, requestFailures, requestOf, type ResourceGroupInputs, type ResourceGroupOutputs } from "./shape";

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
  failures.push(
    ...requestFailures(inputs)
      .filter((f) => !reported.has(f.property))
      .map((f) => ofDerivedName(f, inputs, news.logicalName)),
  );
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
export async function planAdoption(inputs: ResourceGroupInputs): Promise<{ group: WireGroup; program: ResourceGroupInputs; changes: string[] }> {
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
