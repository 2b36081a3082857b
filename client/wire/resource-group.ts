/** Wire schemas of resource groups: platform-api A2.3 and A4.3, platform-api B1. */
import { z } from "zod";
import type { DeclaredField, DeclaredOutput, FieldDescription, KindDeclaration, KindDescription } from "./kind";
import { snakeToCamel, type SnakeToCamel } from "../case";
import { flag, looseNumber, maybe, ownedObjectFields, paging, pathSegment, requiredString, text, tolerant, unique } from "./common";

export const podType = z.enum(["infer", "instance", "job"]);

const podTypes = unique(podType).min(1, "must name at least one of infer, instance, job");

export const createResourceGroupRequest = z.strictObject({
  name: requiredString.max(128, "must be at most 128 characters"),
  description: text(1024),
  sku_id: requiredString,
  pod_type: podTypes,
  customize_enable: flag,
});
export type CreateResourceGroupRequest = z.input<typeof createResourceGroupRequest>;

export const updateResourceGroupRequest = z.strictObject({
  rg_id: pathSegment,
  name: requiredString.max(128, "must be at most 128 characters"),
  description: text(1024),
  pod_type: podTypes,
  customize_enable: flag,
});
export type UpdateResourceGroupRequest = z.input<typeof updateResourceGroupRequest>;

/** Query of the (undocumented, assumed) list of resource groups. */
export const listResourceGroupsQuery = z.strictObject({ ...paging, name: z.string().optional() });

/** The fields of a resource group as returned, after the spellings are settled (see resourceGroup). */
const resourceGroupFields = z.looseObject({
  rg_id: z.string().describe("The group id assigned by the platform (also the resource id)."),
  name: maybe(z.string()),
  description: tolerant(z.string()),
  ...ownedObjectFields,
  status: ownedObjectFields.status.describe("Platform state, e.g. `active`."),
  reason: ownedObjectFields.reason.describe("Reason for the last state change, when the platform gives one."),
  resource_type: tolerant(z.string()),
  pod_type: tolerant(z.array(z.string())),
  customize_enable: looseNumber,
  sku_id: tolerant(z.string()),
});

/**
 * Resource group as returned (platform-api A2.3). The platform sends `pod_type` as one
 * comma-separated string and the spec's table spells two fields differently
 * from the sample; all forms are accepted and the sample's is kept.
 */
export const resourceGroup = z.preprocess((raw) => {
  if (raw === null || typeof raw !== "object") return raw;
  const { create_at, rescource_type, ...rest } = raw as Record<string, unknown>;
  const podType = rest.pod_type;
  return {
    ...rest,
    created_at: rest.created_at ?? create_at,
    resource_type: rest.resource_type ?? rescource_type,
    pod_type:
      typeof podType === "string"
        ? podType
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : podType,
  };
}, resourceGroupFields);
export type ResourceGroup = z.output<typeof resourceGroup>;

/**
 * The ResourceGroup kind, described once: each field a program sets, the wire
 * field it travels as (every field of the create request has one, or this
 * does not compile), how a change applies (in place by the update operation,
 * platform-api B1, or by replacing the group), its default, and its encoding
 * where the program's form is not the wire's. Everything else derives from
 * it: the program's types, the create and update bodies, the outputs, check's
 * property names and diff's rules (provider/resource-group/index.ts), and the SDK's
 * list of outputs (sdk/resource-group.ts).
 */
const groupFieldTable = {
  name: {
    wire: "name",
    change: "updateResourceGroup",
    filled: true,
    doc:
      "Name of the group. Default: the resource name plus a suffix: 7 characters derived from this stack's random id, the resource name and " +
      "its parent, after this stack's token where the random id is `s2-` and 32 hex, kept across updates. A name you set must not be held by a " +
      "group this resource did not create. Changing it updates the group in place.",
    outputDoc: "Name of the group as the platform holds it.",
  },
  description: {
    wire: "description",
    change: "updateResourceGroup",
    default: "",
    doc: "Free text, at most 977 characters (the platform keeps 1024; the provider appends its ownership mark). Default: empty. Updates in place.",
  },
  skuId: { wire: "sku_id", change: "replace", doc: "Resource specification (product catalogue sku id) the group offers. Changing it replaces the group." },
  // Plural in programs: a list of workload kinds.
  podTypes: {
    wire: "pod_type",
    change: "updateResourceGroup",
    doc:
      "Workloads allowed to use the group: `infer` (inference services), `instance` (notebooks), `job` (distributed training). At least one, no " +
      "duplicates. Updates in place.",
    outputDoc: "Pod types as the platform returned them.",
  },
  // A boolean in programs, 0 or 1 on the wire.
  customizeEnable: {
    wire: "customize_enable",
    change: "updateResourceGroup",
    default: false,
    program: z.boolean(),
    encode: (on: boolean): 0 | 1 => (on ? 1 : 0),
    decode: (flagValue: unknown) => flagValue === 1,
    doc: "Whether custom specifications are allowed. Default: false. Updates in place.",
  },
} as const satisfies Record<string, GroupFieldDescription>;

/**
 * The group's own field of the provider: read at create only, never sent.
 * A take-over changes the group in place and writes the mark into its description.
 */
const groupAdoptId = {
  schema: z.string(),
  doc:
    "Takes over an existing group by its `rgId` instead of creating one. Preview warns what the take-over will change to match the program; `up` " +
    "changes it in place (name, description, pod types, customize flag) and writes this resource's mark into its description. A different `skuId`, " +
    "or a group made by another Pulumi resource, is refused with nothing changed. Read only when the resource is created; keep it in the program.",
};

const groupFieldNames = Object.keys(groupFieldTable) as Array<keyof typeof groupFieldTable>;

/** A group's fields as the platform returns them, camelCase, each as recorded (null where the platform sent none). */
export type GroupFieldsRecorded = { [K in keyof typeof resourceGroupFields.shape as SnakeToCamel<K & string>]?: unknown };

/** Outputs no program sets: the platform's own fields of a group, camelCase. */
const groupPlatformOutputNames = Object.keys(resourceGroupFields.shape)
  .filter((wireName) => !Object.values(groupFieldTable).some((f) => f.wire === wireName))
  .map(snakeToCamel);

/**
 * What the plugin's schema declares of a ResourceGroup: each field in the
 * program's form (the request's rule, or the program's where it differs),
 * required where the request needs it and nothing fills it; each output with
 * its documentation.
 */
function groupDeclaration(): KindDeclaration {
  const request = createResourceGroupRequest.shape;
  const inputs: Record<string, DeclaredField> = {};
  for (const name of groupFieldNames) {
    const field: GroupFieldDescription = groupFieldTable[name];
    const schema = field.program ?? request[field.wire];
    inputs[name] = { schema, doc: field.doc, required: !field.filled && field.default === undefined && !schema.safeParse(undefined).success };
  }
  inputs.adoptId = groupAdoptId;
  const outputs: Record<string, DeclaredOutput> = {};
  for (const name of groupFieldNames) {
    const field: GroupFieldDescription = groupFieldTable[name];
    outputs[name] = { doc: field.outputDoc ?? field.doc };
  }
  for (const [wireName, schema] of Object.entries(resourceGroupFields.shape)) {
    if (!groupFieldNames.some((k) => groupFieldTable[k].wire === wireName)) outputs[snakeToCamel(wireName)] = { schema, doc: schema.description };
  }
  return {
    doc:
      "A resource group on the AICP platform: a set of resources offered to inference services, notebooks and training jobs. The resource id is " +
      "the group's `rgId`.",
    inputs,
    outputs,
  };
}

/**
 * One field of the group's table: every kind's field description
 * (client/wire/kind.ts), each travelling in the create request; a change
 * applies in place by the update operation (platform-api B1), or replaces.
 */
type GroupFieldDescription = FieldDescription<"updateResourceGroup", keyof typeof createResourceGroupRequest.shape> & {
  readonly wire: keyof typeof createResourceGroupRequest.shape;
};

/** The lists every kind gives (client/wire/kind.ts), derived from the field table. */
const groupDescription = {
  inPlace: groupFieldNames.filter((k) => groupFieldTable[k].change === "updateResourceGroup"),
  inPlaceWhen: {},
  replace: groupFieldNames.filter((k) => groupFieldTable[k].change === "replace"),
  readAtCreateOnly: ["adoptId"],
  defaults: Object.fromEntries(groupFieldNames.flatMap((k) => ("default" in groupFieldTable[k] ? [[k, groupFieldTable[k].default]] : []))),
  /** Every output: the program's fields (an input the user omits must still read back) and the platform's. */
  outputs: [...groupFieldNames, ...groupPlatformOutputNames],
  /** None: a group holds no credential. */
  secretOutputs: [],
  declaration: groupDeclaration(),
} as const satisfies KindDescription;

export const resourceGroupKind = { fields: groupFieldTable, platformOutputs: groupPlatformOutputNames, ...groupDescription } as const;

type GroupFields = (typeof resourceGroupKind)["fields"];
type GroupRequest = z.output<typeof createResourceGroupRequest>;

// Every field of the create request is one of the kind's fields: a field added to the schema does not compile until described.
const everyRequestFieldDescribed: Exclude<keyof GroupRequest, GroupFields[keyof GroupFields]["wire"]> extends never ? true : never = true;
void everyRequestFieldDescribed;

/** A ResourceGroup as a program describes it: each field in the program's form (decoded where the wire's differs). */
export type GroupProgram = {
  [K in keyof GroupFields]: GroupFields[K] extends { decode: (w: never) => infer T } ? T : GroupRequest[GroupFields[K]["wire"]];
};

/** The kind's fields, by how a change applies. */
export const groupFieldsChanging = (change: "updateResourceGroup" | "replace"): ReadonlyArray<keyof GroupFields> =>
  groupFieldNames.filter((k) => groupFieldTable[k].change === change);

/** The program's name of a wire field of the create or update request (for check's messages). */
export function groupFieldOfWire(wireName: string): string {
  const found = (Object.keys(resourceGroupKind.fields) as Array<keyof GroupFields>).find((k) => resourceGroupKind.fields[k].wire === wireName);
  return found ?? wireName;
}

/** The create request for a group the program describes; `description` is the text sent (the provider appends its mark). */
export function groupCreateRequest(program: Partial<GroupProgram>, description: string): CreateResourceGroupRequest {
  const fields = resourceGroupKind.fields;
  return {
    name: program.name ?? "",
    description,
    sku_id: program.skuId ?? "",
    pod_type: program.podTypes ?? [],
    customize_enable: fields.customizeEnable.encode(program.customizeEnable ?? fields.customizeEnable.default),
  } satisfies Record<GroupFields[keyof GroupFields]["wire"], unknown>;
}

/** The update request: the in-place fields of the create request (those that replace are not sent), for the group `rgId`. */
export function groupUpdateRequest(rgId: string, program: Partial<GroupProgram>, description: string): UpdateResourceGroupRequest {
  const body: Record<string, unknown> = { ...groupCreateRequest(program, description) };
  for (const key of groupFieldsChanging("replace")) delete body[resourceGroupKind.fields[key].wire];
  return { rg_id: rgId, ...body } as UpdateResourceGroupRequest;
}

/** What a group answer says of the program's fields (in the program's form), each absent where the platform sent nothing. */
export function groupProgramOf(group: ResourceGroup): { [K in keyof GroupProgram]: GroupProgram[K] | string[] | undefined } {
  const fields = resourceGroupKind.fields;
  return {
    name: group.name ?? undefined,
    description: group.description ?? undefined,
    skuId: group.sku_id ?? undefined,
    podTypes: group.pod_type ?? undefined,
    customizeEnable:
      group.customize_enable === undefined || group.customize_enable === null ? undefined : fields.customizeEnable.decode(group.customize_enable),
  };
}

/** What a group answer adds besides the program's fields: the platform outputs of the kind, null where absent. */
export function groupPlatformOutputs(group: ResourceGroup): Record<string, unknown> {
  const byCamel = Object.fromEntries(Object.entries(group).map(([k, v]) => [snakeToCamel(k), v]));
  return Object.fromEntries(resourceGroupKind.platformOutputs.map((key) => [key, byCamel[key] ?? null]));
}
