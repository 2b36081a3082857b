/**
 * A ResourceGroup's shape: its inputs and recorded outputs, which fields
 * change in place and which replace, its create request as check validates
 * it, and the outputs recorded from what the platform returned.
 */
import * as wire from "../../client/wire";
import type { ResourceGroup as WireGroup } from "../../client/wire";
import {
  groupCreateRequest,
  groupFieldOfWire,
  groupFieldsChanging,
  groupPlatformOutputs,
  groupProgramOf,
  resourceGroupKind,
  type GroupProgram,
} from "../../client/wire/resource-group";
import { camelPath, compact, type CheckFailure } from "../inputs";
import { withoutGroupMark } from "../ownership";

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

export const inPlace = groupFieldsChanging("updateResourceGroup");
export const replacing = groupFieldsChanging("replace");

/** The create request's fields that check validates (the mark is appended later, within the room check keeps for it). */
export function requestOf(inputs: ResourceGroupInputs) {
  return groupCreateRequest(inputs, inputs.description ?? resourceGroupKind.fields.description.default);
}

/** Failures of the create request, named by the program's properties. */
export function requestFailures(inputs: ResourceGroupInputs): CheckFailure[] {
  const result = wire.createResourceGroupRequest.safeParse(requestOf(inputs));
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    const property = camelPath(head === undefined ? [] : [groupFieldOfWire(String(head)), ...rest]) || "(inputs)";
    return { property, reason: `${property} ${issue.message}` };
  });
}

/** The outputs: the inputs, overlaid with what the platform returned, and when this machine had the create's answer. */
export function outputs(inputs: ResourceGroupInputs & Pick<ResourceGroupOutputs, "createAnsweredAt">, group: WireGroup): ResourceGroupOutputs {
  return compact({ ...rawOutputs(inputs, group), createAnsweredAt: inputs.createAnsweredAt });
}

export function rawOutputs(inputs: ResourceGroupInputs, group: WireGroup): ResourceGroupOutputs {
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
