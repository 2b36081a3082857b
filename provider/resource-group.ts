/**
 * Lifecycle of a ResourceGroup. Name, description, pod types and the customize
 * flag update in place (platform notes §1, update resource group); a new
 * `skuId` replaces the group.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as wire from "./client/wire";
import type { ResourceGroup as WireGroup } from "./client/wire";
import { collectAll } from "./client/paging";
import { AicpError } from "./client/errors";
import { currentClient, currentSettings } from "./context";
import { changedKeys, compact, resolveName, validateAgainst, withoutUnknowns, type CheckFailure } from "./inputs";

/** Inputs as the SDK passes them (camelCase). */
export interface ResourceGroupInputs {
  logicalName: string;
  /** Suffix of the auto-name, derived by the SDK (see sdk/forward.ts). */
  autoNameSuffix?: string;
  name?: string;
  autoNamed?: boolean;
  description?: string;
  skuId: string;
  podTypes: Array<"infer" | "instance" | "job">;
  customizeEnable?: boolean;
}

export interface ResourceGroupOutputs extends ResourceGroupInputs {
  name: string;
  rgId: string;
  status?: string;
  reason?: string;
  resourceType?: string;
  createdAt?: string;
  updatedAt?: string;
  userId?: string;
  rootUserId?: string;
}

const inPlace = ["name", "description", "podTypes", "customizeEnable"] as const;
const replacing = ["skuId"] as const;

/** The wire body for create; `podTypes` is `pod_type` on the wire. */
function toWire(inputs: ResourceGroupInputs) {
  return {
    name: inputs.name,
    description: inputs.description ?? "",
    skuId: inputs.skuId,
    podType: inputs.podTypes,
    customizeEnable: inputs.customizeEnable ? 1 : 0,
  };
}

function renameFailures(failures: CheckFailure[]): CheckFailure[] {
  const fix = (s: string) => s.replace(/^podType\b/, "podTypes").replace(/^customizeEnable 0 or 1/, "customizeEnable must be a boolean");
  return failures.map((f) => ({ property: fix(f.property), reason: fix(f.reason) }));
}

export async function check(olds: Partial<ResourceGroupOutputs>, news: ResourceGroupInputs): Promise<pulumi.dynamic.CheckResult<ResourceGroupInputs>> {
  const naming = resolveName(news, olds);
  const inputs: ResourceGroupInputs = { ...news, ...naming, description: news.description ?? "", customizeEnable: news.customizeEnable ?? false };
  const failures: CheckFailure[] = [];
  if (news.customizeEnable !== undefined && typeof news.customizeEnable !== "boolean") {
    failures.push({ property: "customizeEnable", reason: "customizeEnable must be a boolean" });
  }
  failures.push(...renameFailures(validateAgainst(wire.createResourceGroupRequest, toWire(inputs)).failures));
  const known = withoutUnknowns(failures, news);
  return known.length > 0 ? { inputs, failures: known } : { inputs };
}

export async function diff(_id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedKeys(olds as unknown as Record<string, unknown>, news as unknown as Record<string, unknown>, replacing);
  const updates = changedKeys(
    { ...olds, podTypes: [...(olds.podTypes ?? [])].sort() } as Record<string, unknown>,
    { ...news, podTypes: [...(news.podTypes ?? [])].sort() } as Record<string, unknown>,
    inPlace,
  );
  // The replacement keeps the (stable) name, and create adopts a group listed under it.
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
}

export async function create(inputs: ResourceGroupInputs): Promise<pulumi.dynamic.CreateResult<ResourceGroupOutputs>> {
  const client = currentClient();
  const w = toWire(inputs);
  // An auto-name is unique to this stack's resource: a group listed under it
  // comes from an earlier run that was interrupted after sending the create.
  let group = inputs.autoNamed ? await ownGroupNamed(w.name!) : undefined;
  if (!group) {
    try {
      group = await client.createResourceGroup({
        name: w.name!,
        description: w.description,
        sku_id: w.skuId,
        pod_type: w.podType,
        customize_enable: w.customizeEnable as 0 | 1,
      });
    } catch (error) {
      // The answer was lost: look for the group rather than sending the create again.
      if (!(error instanceof AicpError && error.outcomeUnknown)) throw error;
      group = await ownGroupNamed(w.name!);
      if (!group) throw error;
    }
  }
  return { id: group.rg_id, outs: outputs(inputs, group) };
}

/** The one group of the configured user with exactly this name, if any. */
async function ownGroupNamed(name: string): Promise<WireGroup | undefined> {
  const client = currentClient();
  const user = currentSettings().userId;
  const listed = await collectAll((offset, limit) => client.listResourceGroups({ name, offset, limit }), {}, (g) => g.rg_id);
  const matches = listed.filter((g) => g.name === name && (!user || !g.user_id || g.user_id === user));
  return matches.length === 1 ? matches[0] : undefined;
}

export async function read(id: string, props: ResourceGroupOutputs): Promise<pulumi.dynamic.ReadResult<ResourceGroupOutputs>> {
  const group = await currentClient().getResourceGroup(id);
  // An empty id tells the engine the group is gone, so refresh drops it.
  if (!group) return { id: "", props: {} as ResourceGroupOutputs };
  return { id, props: outputs(props, group) };
}

export async function update(id: string, _olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.UpdateResult<ResourceGroupOutputs>> {
  const client = currentClient();
  await client.updateResourceGroup({
    rg_id: id,
    name: news.name!,
    description: news.description ?? "",
    pod_type: news.podTypes,
    customize_enable: news.customizeEnable ? 1 : 0,
  });
  const group = await client.getResourceGroup(id);
  return { outs: outputs(news, group ?? { rg_id: id }) };
}

export async function remove(id: string): Promise<void> {
  await currentClient().deleteResourceGroup(id);
}

/** The outputs: the inputs, overlaid with what the platform returned. */
function outputs(inputs: ResourceGroupInputs, group: WireGroup): ResourceGroupOutputs {
  return compact(rawOutputs(inputs, group));
}

function rawOutputs(inputs: ResourceGroupInputs, group: WireGroup): ResourceGroupOutputs {
  const podTypes = (group.pod_type ?? inputs.podTypes) as ResourceGroupInputs["podTypes"];
  return {
    logicalName: inputs.logicalName,
    autoNamed: inputs.autoNamed,
    name: group.name ?? inputs.name!,
    description: group.description ?? inputs.description ?? "",
    skuId: group.sku_id ?? inputs.skuId,
    podTypes,
    customizeEnable: group.customize_enable === undefined || group.customize_enable === null ? inputs.customizeEnable : group.customize_enable === 1,
    rgId: group.rg_id,
    status: group.status ?? undefined,
    reason: group.reason ?? undefined,
    resourceType: group.resource_type ?? undefined,
    createdAt: group.created_at ?? undefined,
    updatedAt: group.updated_at ?? undefined,
    userId: group.user_id ?? undefined,
    rootUserId: group.root_user_id ?? undefined,
  };
}
