/**
 * The Notebook kind, described once: every field a program sets, with the
 * create request's field it travels as (platform-api A4.2), the rule its value
 * meets, how a change applies (platform-api B1), its default, whether the
 * state keeps it secret, and what it is. Everything else derives from this
 * table: the create request's schema, check's known names and the provider's
 * own checks (provider/notebook/inputs.ts), diff's rules, which write applies
 * an in-place change (provider/notebook/update.ts), the outputs, and the SDK's
 * and the schema's declarations (tools/sdk-types).
 */
import { z } from "zod";
import { dateTime, flag, notebookUuid, pathSegment, reportAlways, requiredString, text } from "./common";
import {
  chargeMode,
  envVar,
  envVarInProgram,
  imageSecret,
  imageSecretInProgram,
  imageType,
  replicaSpecsRequest,
  serverType,
  volumeSpecRequest,
} from "./notebook-request";
import type { FieldChange, FieldDescription } from "./kind";

/** The writes that change a notebook in place (platform-api B1: set_stop_time, set_delete_time, change_image, and stop then start). */
type NotebookWrite = "setStopTime" | "setDeleteTime" | "changeImage" | "stopAndStart";

/** How a change of a notebook's field applies (client/wire/kind.ts FieldChange). */
export type NotebookChange = FieldChange<NotebookWrite>;

/** One field of the table: every kind's field description, with its rule always given here (the request's schema is built from it). */
export type NotebookFieldDescription = FieldDescription<NotebookWrite> & { readonly schema: z.ZodType };

const script = text(65536).optional();
const wholeSeconds = "must be a whole number of seconds from 1 to 86400";
const notebookUuidRule = "must be a notebook uuid: a non-empty string of at most 36 characters";

/** The table. Order is the create request's (platform-api A4.2), then the provider's own fields. */
export const notebookFields = {
  chargeMode: { wire: "charge_mode", schema: chargeMode, change: "replace", doc: "`elastic` (pay on demand) or `monthly` (subscription)." },
  duration: { wire: "duration", schema: z.int(), change: "replace", doc: "3600 for `elastic`; the number of months, 1 to 60, for `monthly`." },
  autoRenew: { wire: "auto_renew", schema: flag.optional(), change: "replace", doc: "1 to renew a monthly subscription automatically, 0 not to." },
  nextChargeMode: {
    wire: "next_charge_mode",
    schema: chargeMode.optional(),
    change: "replace",
    doc: "The charge mode of the next period: `elastic` or `monthly`.",
  },
  userId: { wire: "user_id", schema: requiredString, change: "replace", filled: true, doc: "User id. Default: `aicp:userId`." },
  rootUserId: { wire: "root_user_id", schema: requiredString.optional(), change: "replace", doc: "Root (main account) user id." },
  namespace: {
    wire: "namespace",
    schema: pathSegment,
    change: "replace",
    filled: true,
    doc: "Namespace that owns the notebook. Default: `aicp:userId` in lower case.",
  },
  image: { wire: "image", schema: requiredString.pipe(text(1024)), change: "changeImage", doc: "Image name or address." },
  imageType: { wire: "image_type", schema: imageType, change: "changeImage", doc: "`official`, `user` or `custom`." },
  name: {
    wire: "name",
    schema: requiredString.max(128, "must be at most 128 characters"),
    change: "replace",
    filled: true,
    doc:
      "Instance name. Default: the resource name plus a suffix, the same on every run and different in every other stack: 7 characters derived " +
      "from this stack's random id, the resource name and its parent, after this stack's token (6 characters of its random id, so the provider " +
      "lists this stack's notebooks alone) where the random id is `s2-` and 32 hex characters, as every one this provider makes. A name you set must " +
      "not be held in the namespace by a notebook this resource did not create: the provider adopts only a notebook carrying this resource's " +
      "mark (env `PULUMI_AICP_MARK`).",
  },
  serverType: { wire: "server_type", schema: serverType, change: "replace", doc: "`jupyter`, `code_server` or `rstudio`." },
  envs: {
    wire: "envs",
    schema: z.array(envVar).optional(),
    program: z.array(envVarInProgram).optional(),
    change: "replace",
    secret: true,
    doc:
      "Environment variables: `name`, and either `value` or `valueFromEnv`, the name of an environment variable the provider reads the value from " +
      "where pulumi runs (which keeps it out of the engine and out of code; `pulumi import` writes it). Kept secret, as values often hold tokens. " +
      "The provider adds `PULUMI_AICP_MARK`, `PULUMI_AICP_CREATE_SENT_AT` and `PULUMI_AICP_PLACE` (this resource's mark, when its create was " +
      "sent, its place in its stack), which the program may not set.",
    outputDoc: "Environment variables as the platform holds them (`name`, `value`); kept secret, as values often hold tokens.",
  },
  stopTime: {
    wire: "stop_time",
    schema: dateTime.optional(),
    change: "setStopTime",
    doc: "When the platform stops the notebook; must be in the future when set or changed.",
  },
  autoDeleteTime: {
    wire: "auto_delete_time",
    schema: dateTime.optional(),
    change: "setDeleteTime",
    doc: "When the platform deletes the notebook; must be in the future when set or changed.",
  },
  replicaSpecs: {
    wire: "replica_specs",
    schema: replicaSpecsRequest,
    change: "stopAndStart",
    inPlaceWhen: "it names a sku in `specs` (applied by a stop and a start)",
    doc: "Resources: `replicas` (default 1), `specs` (a sku or node id), `rgId`, custom CPU, GPU, memory and disk fields, `templateId`.",
    outputDoc: "Replica specification as the platform returned it.",
  },
  volumeSpecs: {
    wire: "volume_specs",
    schema: z.array(volumeSpecRequest).optional(),
    change: "replace",
    doc: "Mounted file sets: `fileSet`, `mountPath`, `volumeType`, `fileType`, `quota`, `permission`, `owner`.",
    outputDoc: "Mounted volumes as the platform returned them.",
  },
  customImageSecret: {
    wire: "custom_image_secret",
    schema: imageSecret.optional(),
    program: imageSecretInProgram.optional(),
    change: "changeImage",
    writeAs: "secret",
    secret: true,
    secretParts: ["password"],
    doc:
      "Credentials of a custom image registry: `hasAuth`, `username`, and either `password` (kept as a secret input) or `passwordFromEnv`, the name of " +
      "an environment variable the provider reads where pulumi runs, which keeps the password out of the engine entirely (its `-v=9` logs print secret " +
      "inputs). Username and password are required when `hasAuth` is true. The state records a keyed digest of the password, never the password.",
    outputDoc: "Registry credentials as recorded: `hasAuth`, `username` and a keyed digest of the password (never the password).",
  },
  pip: { wire: "pip", schema: script, change: "replace", doc: "pip packages to install." },
  conda: { wire: "conda", schema: script, change: "replace", doc: "conda environment configuration." },
  apt: { wire: "apt", schema: script, change: "replace", doc: "apt packages to install." },
  customFirst: { wire: "custom_first", schema: script, change: "replace", doc: "First-priority custom configuration (protocol 9001)." },
  customSecond: { wire: "custom_second", schema: script, change: "replace", doc: "Second-priority custom configuration (protocol 9002)." },
  desiredState: {
    schema: z.enum(["Running", "Stopped"], { error: (issue) => `must be "Running" or "Stopped", got ${JSON.stringify(issue.input)}` }),
    change: "stopAndStart",
    default: "Running",
    doc: "`Running` (default) or `Stopped`: the provider stops or starts the notebook to match.",
    outputDoc:
      "The program's desiredState; after a refresh, the state the platform holds when it differs (`Stopped`, or `Failed`), which the next `up` repairs.",
  },
  waitForReady: {
    schema: z.boolean({ error: "must be a boolean" }),
    change: "record",
    default: true,
    doc: "Wait for the desired state on create and update. Default: true.",
  },
  readyTimeoutSeconds: {
    schema: z.int({ error: wholeSeconds }).min(1, wholeSeconds).max(86_400, wholeSeconds),
    change: "record",
    default: 600,
    doc: "How long to wait for the desired state, in seconds. Default: 600.",
  },
  adoptId: {
    schema: z.string({ error: notebookUuidRule }).min(1, notebookUuidRule).max(36, notebookUuidRule),
    change: "createOnly",
    doc:
      "Takes over an existing notebook by its uuid instead of creating one (one made in the console, or one whose state was lost). Preview warns what " +
      "the take-over will change to match the program; `up` changes it in place and manages it from then on. A difference that needs a replacement, a " +
      "different name, or a notebook made by another Pulumi resource is refused, with nothing changed. Read only when the resource is created; keep it " +
      "in the program. (With the provider plugin, `pulumi import` works too; with the package's dynamic resources it does not: see docs/plugin.md.)",
  },
} as const satisfies Record<string, NotebookFieldDescription>;

type Fields = typeof notebookFields;
/** A field a program sets. */
export type NotebookFieldName = keyof Fields;
/** The fields that travel in the create request. */
type WireFieldName = { [K in NotebookFieldName]: Fields[K] extends { wire: string } ? K : never }[NotebookFieldName];
/** The provider's own fields, each optional, as a program gives them. */
export type NotebookProviderFieldValues = { [K in Exclude<NotebookFieldName, WireFieldName>]?: z.input<Fields[K]["schema"]> };

const fieldNames = Object.keys(notebookFields) as NotebookFieldName[];
const describe = (name: NotebookFieldName): NotebookFieldDescription => notebookFields[name];

/**
 * Fields of the create request no program sets: the spec's sample body carries
 * them, their roles are not documented; the provider fills zone and owner from
 * configuration, and service and action mean nothing for a Notebook resource.
 */
const requestOnlyFields = { service: z.string().optional(), action: z.string().optional(), zone: z.string().optional(), owner: z.string().optional() };

type RequestShape = { [K in WireFieldName as Fields[K]["wire"]]: Fields[K]["schema"] } & typeof requestOnlyFields;

function requestShape(): RequestShape {
  const shape: Record<string, z.ZodType> = {};
  for (const name of fieldNames) {
    const { wire, schema } = describe(name);
    if (wire) shape[wire] = schema;
  }
  return { ...shape, ...requestOnlyFields } as RequestShape;
}

/** The create request (platform-api A4.2), from the table, with the rule that ties `duration` to `charge_mode`. */
export const createNotebookRequest = z.strictObject(requestShape()).superRefine((body, ctx) => {
  if (typeof body.duration !== "number") return;
  if (body.charge_mode === "elastic" && body.duration !== 3600) {
    ctx.addIssue({ code: "custom", path: ["duration"], message: "must be 3600 when charge_mode is elastic" });
  }
  if (body.charge_mode === "monthly" && (body.duration < 1 || body.duration > 60)) {
    ctx.addIssue({ code: "custom", path: ["duration"], message: "must be a number of months from 1 to 60 when charge_mode is monthly" });
  }
}, reportAlways);
export type CreateNotebookRequest = z.input<typeof createNotebookRequest>;

type ImageFieldName = { [K in WireFieldName]: Fields[K]["change"] extends "changeImage" ? K : never }[WireFieldName];
type WriteName<K extends ImageFieldName> = Fields[K] extends { writeAs: infer W extends string } ? W : Fields[K]["wire"];
type ImageWriteShape = { [K in ImageFieldName as WriteName<K>]: Fields[K]["schema"] };

const imageFieldNames = fieldNames.filter((name) => describe(name).change === "changeImage");
const writeNameOf = (name: NotebookFieldName): string => describe(name).writeAs ?? describe(name).wire ?? name;

/** The change_image request (platform-api B1): the notebook, and every field the table says that write changes. */
export const changeImageRequest = z.strictObject({
  uuid: notebookUuid,
  ...(Object.fromEntries(imageFieldNames.map((name) => [writeNameOf(name), describe(name).schema])) as ImageWriteShape),
});

/** The change_image request for notebook `uuid`, from a validated create request's fields. */
export function changeImageBody(uuid: string, body: CreateNotebookRequest): z.input<typeof changeImageRequest> {
  const record = body as Record<string, unknown>;
  return { uuid, ...Object.fromEntries(imageFieldNames.map((name) => [writeNameOf(name), record[describe(name).wire ?? name]])) } as z.input<
    typeof changeImageRequest
  >;
}

/** The fields whose change applies as `change` says. */
export function notebookFieldsChanging(...changes: NotebookChange[]): NotebookFieldName[] {
  return fieldNames.filter((name) => changes.includes(describe(name).change));
}

/** Whether a program must give the field: the request requires it and the provider does not fill it. */
export function requiredInPrograms(name: NotebookFieldName): boolean {
  const field = describe(name);
  return field.wire !== undefined && !field.filled && !field.schema.safeParse(undefined).success;
}

/** The provider's own fields (they travel in no request), with the rule check applies to each. */
export const providerFields = Object.fromEntries(
  fieldNames.filter((name) => describe(name).wire === undefined).map((name) => [name, describe(name).schema]),
) as Readonly<Record<Exclude<NotebookFieldName, WireFieldName>, z.ZodType>>;

/** The conditions of the fields whose change is in place only under one (and replaces the notebook otherwise). */
export const notebookInPlaceWhen: Readonly<Record<string, string>> = Object.fromEntries(
  fieldNames.flatMap((name) => {
    const condition = describe(name).inPlaceWhen;
    return condition === undefined ? [] : [[name, condition]];
  }),
);

/** What the provider takes for each field a program leaves out, where that is a fixed value. */
export const notebookDefaults = Object.fromEntries(
  fieldNames.flatMap((name) => ("default" in notebookFields[name] ? [[name, describe(name).default]] : [])),
) as {
  readonly [K in NotebookFieldName as Fields[K] extends { default: unknown } ? K : never]: Fields[K] extends { default: infer D } ? D : never;
};
