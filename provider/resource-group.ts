/**
 * Lifecycle of a ResourceGroup. Name, description, pod types and the customize
 * flag update in place (platform-api B1, update resource group); a new
 * `skuId` replaces the group.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as wire from "./client/wire";
import type { ResourceGroup as WireGroup } from "./client/wire";
import { collectAll } from "./client/paging";
import { AicpError, asOneLine } from "./client/errors";
import { currentClient, currentSettings } from "./context";
import { changedKeys, compact, resolveMark, resolveName, unknownPaths, validateAgainst, withoutUnknowns, type CheckFailure } from "./inputs";
import { warn } from "./engine-log";
import { createOnce, isProvisional, lookedUpTwice, partlyCreated, resolveProvisional, sleep, stillUnconfirmed, UnconfirmedCreate } from "./create-once";
import { groupMarkLength, groupMarkOf, withGroupMark, withoutGroupMark } from "./ownership";
import { pollDefaults } from "./notebook-wait";

/** Inputs as the SDK passes them (camelCase). */
export interface ResourceGroupInputs {
  logicalName: string;
  /** Suffix of the auto-name, derived by the SDK (see sdk/forward.ts). */
  autoNameSuffix?: string;
  name?: string;
  autoNamed?: boolean;
  /** This resource's mark, derived by the SDK and kept once recorded (see ownership.ts). */
  ownerMark?: string;
  description?: string;
  skuId: string;
  podTypes: Array<"infer" | "instance" | "job">;
  customizeEnable?: boolean;
  /** rgId of an existing group to take over at create (see planAdoption). */
  adoptId?: string;
}

export interface ResourceGroupOutputs extends ResourceGroupInputs {
  name: string;
  rgId: string;
  status?: string | null;
  reason?: string | null;
  resourceType?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  userId?: string | null;
  rootUserId?: string | null;
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
    failures.push({ property: "description", reason: `description must be at most ${room} characters (the platform's 1024, less ${groupMarkLength} for the provider's ownership mark)` });
  }
  if (news.customizeEnable !== undefined && typeof news.customizeEnable !== "boolean") {
    failures.push({ property: "customizeEnable", reason: "customizeEnable must be a boolean" });
  }
  if (news.adoptId !== undefined && (typeof news.adoptId !== "string" || news.adoptId === "")) {
    failures.push({ property: "adoptId", reason: "adoptId must be the rgId of an existing group: a non-empty string" });
  }
  failures.push(...renameFailures(validateAgainst(wire.createResourceGroupRequest, toWire(inputs)).failures));
  const known = withoutUnknowns(failures, news);
  // No undefined members: the engine cannot encode them and would print only "Unexpected struct type".
  if (known.length > 0) return { inputs: compact(inputs), failures: known };
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
        `${plan.changes.length > 0 ? `change ${plan.changes.join(", ")} in place` : "change nothing the program sets"} and write this resource's mark into its description.`,
    );
    // An auto-named resource keeps the group's name.
    return { inputs: compact(plan.program) };
  } catch (error) {
    const reason = error instanceof AicpError ? asOneLine(error).message : String(error);
    return { inputs: compact(inputs), failures: [{ property: "adoptId", reason: `ResourceGroup ${inputs.logicalName} cannot take over ${inputs.adoptId}: ${reason}` }] };
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
    throw new AicpError("AICP_CONFLICT", `adoptId ${id}: group ${group.name ?? id} was made by another Pulumi resource (its description carries that resource's mark) and is managed there; nothing was changed.`);
  }
  const program = inputs.autoNamed && group.name ? { ...inputs, name: group.name } : inputs;
  const recordedNow = outputs(program, group);
  if (recordedNow.skuId !== program.skuId) {
    throw new AicpError("AICP_CONFLICT", `adoptId ${id}: the group has skuId ${recordedNow.skuId} and the program ${program.skuId}; a new skuId replaces a group, so it is not taken over; nothing was changed.`);
  }
  const { updates } = diffGroup(recordedNow, program);
  return { group, program, changes: updates };
}

export async function diff(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.DiffResult> {
  // An unconfirmed create is resolved by an update, never by a second create.
  if (isProvisional(id) && !olds.rgId) return { changes: true, replaces: [] };
  const { replaces, updates } = diffGroup(olds, news);
  // Every replacement deletes first (also one forced by `--replace`): it keeps the name and the mark, so a
  // group created beside the old one would adopt the old one, which is then deleted.
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: true };
}

/** Properties that differ between the recorded outputs and the program, split by how they apply. */
function diffGroup(olds: ResourceGroupOutputs, news: ResourceGroupInputs): { replaces: string[]; updates: string[] } {
  const replaces = changedKeys(olds as unknown as Record<string, unknown>, news as unknown as Record<string, unknown>, replacing);
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
    return { id: group.rg_id, outs: (await update(group.rg_id, outputs(program, group), program)).outs! };
  }
  const client = currentClient();
  const w = toWire(inputs);
  const mark = inputs.ownerMark;
  try {
    const { object: group, adopted } = await createOnce<WireGroup>({
      ...byMark(w.name!, mark),
      noun: "resource group",
      place: "this account",
      name: w.name!,
      idOf: (g) => g.rg_id,
      statusOf: (g) => g.status ?? undefined,
      send: () =>
        client.createResourceGroup({
          name: w.name!,
          description: mark === undefined ? w.description : withGroupMark(w.description, mark),
          sku_id: w.skuId,
          pod_type: w.podType,
          customize_enable: w.customizeEnable as 0 | 1,
        }),
      removeFailed: (g) => client.deleteResourceGroup(g.rg_id),
      watchMs: 30_000,
    });
    if (!adopted) return { id: group.rg_id, outs: outputs(inputs, group) };
    // Made by an interrupted earlier run, perhaps before the program changed: match the program now.
    const recordedNow = outputs(inputs, group);
    if ((await diff(group.rg_id, recordedNow, inputs)).changes) {
      if (recordedNow.skuId !== inputs.skuId) {
        const reason = `adopted resource group ${group.rg_id} (made by an interrupted earlier run of this resource) has skuId ${recordedNow.skuId}, which replaces it; run \`pulumi up\` again to replace it.`;
        throw partlyCreated("resource group", reason, group.rg_id, { ...recordedNow, __provider: (inputs as { __provider?: string }).__provider });
      }
      return { id: group.rg_id, outs: (await update(group.rg_id, recordedNow, inputs)).outs! };
    }
    return { id: group.rg_id, outs: recordedNow };
  } catch (error) {
    if (!(error instanceof UnconfirmedCreate)) throw error;
    // The state records the create as unconfirmed; the next run resolves it by the mark.
    const properties = { ...compact({ ...inputs, name: w.name }), createSentAt: error.sentAt };
    throw partlyCreated("resource group", error, error.provisionalId, properties);
  }
}

/** Finds the configured user's groups of exactly this name and recognises ours by the mark. */
function byMark(name: string, mark: string | undefined) {
  const client = currentClient();
  const user = currentSettings().userId;
  return {
    mark,
    markOf: (g: WireGroup) => groupMarkOf(g.description),
    findByName: async () => {
      const listed = await collectAll((offset, limit) => client.listResourceGroups({ name, offset, limit }), {}, (g) => g.rg_id);
      return listed.filter((g) => g.name === name && (!user || !g.user_id || g.user_id === user));
    },
  };
}

/** The group a recorded id stands for (a provisional id is resolved by the mark, see create-once.ts). */
async function resolveGroup(id: string, props: Partial<ResourceGroupOutputs> & { createSentAt?: unknown }, waitMs: number) {
  if (!isProvisional(id)) return { rgId: id };
  if (typeof props.rgId === "string" && props.rgId !== "") return { rgId: props.rgId };
  const resolved = await resolveProvisional(byMark(String(props.name), props.ownerMark), props.createSentAt, waitMs);
  return "found" in resolved ? { rgId: resolved.found.rg_id, found: resolved.found } : resolved;
}

export async function read(id: string, props: ResourceGroupOutputs): Promise<pulumi.dynamic.ReadResult<ResourceGroupOutputs>> {
  const resolved = await resolveGroup(id, props, 0);
  if ("pending" in resolved) return { id, props };
  if ("neverMade" in resolved) return { id: "", props: {} as ResourceGroupOutputs };
  const group = resolved.found ?? (await confirmedGroup(resolved.rgId));
  if (!group && (props as { readById?: unknown }).readById === true) {
    throw new AicpError("AICP_NOT_FOUND", `ResourceGroup.get: this account holds no resource group ${id} (getResourceTemplates and the console list them).`);
  }
  // An empty id tells the engine the group is gone, so refresh drops it: two lookups, a pause apart, agreed.
  if (!group) return { id: "", props: {} as ResourceGroupOutputs };
  return { id: group.rg_id, props: outputs(props, group) };
}

export async function update(id: string, olds: ResourceGroupOutputs, news: ResourceGroupInputs): Promise<pulumi.dynamic.UpdateResult<ResourceGroupOutputs>> {
  const client = currentClient();
  const resolved = await resolveGroup(id, olds, 30_000);
  if ("pending" in resolved) throw groupUnconfirmed(olds, resolved.pending);
  if ("neverMade" in resolved) return { outs: (await create({ ...news, ownerMark: olds.ownerMark ?? news.ownerMark })).outs! };
  const mark = olds.ownerMark ?? news.ownerMark;
  await client.updateResourceGroup({
    rg_id: resolved.rgId,
    name: news.name!,
    description: mark === undefined ? (news.description ?? "") : withGroupMark(news.description, mark),
    pod_type: news.podTypes,
    customize_enable: news.customizeEnable ? 1 : 0,
  });
  const group = await client.getResourceGroup(resolved.rgId);
  return { outs: outputs({ ...news, ownerMark: mark }, group ?? { rg_id: resolved.rgId }) };
}

export async function remove(id: string, props: ResourceGroupOutputs): Promise<void> {
  const resolved = await resolveGroup(id, props ?? {}, 30_000);
  // Destroy never reports a group deleted while its create may still appear.
  if ("pending" in resolved) throw groupUnconfirmed(props, resolved.pending);
  if ("neverMade" in resolved) return;
  const client = currentClient();
  await client.deleteResourceGroup(resolved.rgId);
  // Gone only when a direct lookup says so: a replacement created next must not find (and adopt) it.
  const deadline = Date.now() + 30_000;
  while ((await client.getResourceGroup(resolved.rgId)) !== undefined) {
    if (Date.now() > deadline) {
      throw new AicpError("AICP_WAIT", `resource group ${resolved.rgId} is still listed 30 s after its delete was accepted; run \`pulumi destroy\` (or \`pulumi up\`) again to confirm.`);
    }
    await sleep(pollDefaults().initialIntervalMs);
  }
}

/** The group, asked twice a pause apart before it counts as gone (create-once.ts). */
function confirmedGroup(rgId: string): Promise<WireGroup | undefined> {
  return lookedUpTwice(() => currentClient().getResourceGroup(rgId));
}

/** The error of an operation on a group whose create is still unconfirmed. */
function groupUnconfirmed(props: Partial<ResourceGroupOutputs> & { createSentAt?: unknown }, until: string): AicpError {
  return stillUnconfirmed("resource group", "this account", props, until);
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
    autoNameSuffix: inputs.autoNameSuffix,
    ownerMark: inputs.ownerMark,
    name: group.name ?? inputs.name!,
    description: typeof group.description === "string" ? withoutGroupMark(group.description) : (inputs.description ?? ""),
    skuId: group.sku_id ?? inputs.skuId,
    podTypes,
    customizeEnable: group.customize_enable === undefined || group.customize_enable === null ? inputs.customizeEnable : group.customize_enable === 1,
    rgId: group.rg_id,
    // null, not absent, where the platform gives no value: an output missing from the state is unknown in every preview.
    status: group.status ?? null,
    reason: group.reason ?? null,
    resourceType: group.resource_type ?? null,
    createdAt: group.created_at ?? null,
    updatedAt: group.updated_at ?? null,
    userId: group.user_id ?? null,
    rootUserId: group.root_user_id ?? null,
  };
}
