/** Wire schemas of notebooks (container instances): platform-api A2.2 and A4.2, platform-api B1. */
import { z } from "zod";
import type { KindDescription } from "./kind";
import { snakeToCamel, type Camelized } from "../case";
import { dateTime, flag, looseNumber, looseString, maybe, notebookUuid, ownedObjectFields, paging, pathSegment, reportAlways, requiredString, text, tolerant, unique } from "./common";

export const chargeMode = z.enum(["elastic", "monthly"]);
export const imageType = z.enum(["official", "user", "custom"]);
export const serverType = z.enum(["jupyter", "code_server", "rstudio"]);

/** Resource fields shared by create's `replica_specs` and start's `custom_spec`. */
const replicaResourceFields = {
  replicas: z.int().min(1, "must be at least 1").default(1),
  specs: requiredString.optional(),
  replica_type: requiredString.optional(),
  rg_id: requiredString.optional(),
  custom_cpu: z.int().min(0).optional(),
  custom_memory: z.int().min(0).optional(),
  custom_gpu: z.int().min(0).optional(),
  custom_gpu_list: unique(requiredString).optional(),
  custom_gpu_name: z.string().optional(),
  custom_gpu_memory: z.string().optional(),
  custom_gpu_type: z.string().optional(),
  custom_system_disk_size: z.int().min(0).optional(),
  custom_data_disk_size: z.int().min(0).optional(),
  custom_infiniband: flag.optional(),
  custom_aipods_type: z.string().optional(),
  custom_hashrate_allocation: z.int().min(0).optional(),
  custom_network_description: z.string().optional(),
  custom_cpu_model: z.string().optional(),
  custom_cpu_manufacturer: z.string().optional(),
  template_id: z.int().min(0).optional(),
};

export const replicaSpecsRequest = z.strictObject(replicaResourceFields);

export const volumeSpecRequest = z.strictObject({
  file_set: requiredString,
  mount_path: requiredString.regex(/^\//, "must be an absolute path starting with '/'"),
  volume_type: requiredString,
  file_type: z.enum(["Directory", "File"]).optional(),
  quota: z.int().min(0, "must be 0 or more").default(0),
  permission: z.enum(["rw", "ro"]).optional(),
  owner: z.string().optional(),
});

/** Credentials of a custom image registry; both required when `has_auth` is true. */
export const imageSecret = z
  .strictObject({
    has_auth: z.boolean().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
  })
  .superRefine((secret, ctx) => {
    if (secret?.has_auth !== true) return;
    for (const key of ["username", "password"] as const) {
      if (!secret[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when has_auth is true" });
    }
  }, reportAlways);

/** An environment variable of the notebook (item fields are not shown by the spec). */
export const envVar = z.looseObject({ name: requiredString.pipe(text(256)), value: text(65536) });

export const createNotebookRequest = z
  .strictObject({
    charge_mode: chargeMode,
    duration: z.int(),
    auto_renew: flag.optional(),
    next_charge_mode: chargeMode.optional(),
    user_id: requiredString,
    root_user_id: requiredString.optional(),
    namespace: pathSegment,
    image: requiredString.pipe(text(1024)),
    image_type: imageType,
    name: requiredString.max(128, "must be at most 128 characters"),
    server_type: serverType,
    envs: z.array(envVar).optional(),
    stop_time: dateTime.optional(),
    auto_delete_time: dateTime.optional(),
    replica_specs: replicaSpecsRequest,
    volume_specs: z.array(volumeSpecRequest).optional(),
    custom_image_secret: imageSecret.optional(),
    pip: text(65536).optional(),
    conda: text(65536).optional(),
    apt: text(65536).optional(),
    custom_first: text(65536).optional(),
    custom_second: text(65536).optional(),
    // Present in the spec's sample body; roles not documented.
    service: z.string().optional(),
    action: z.string().optional(),
    zone: z.string().optional(),
    owner: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    if (typeof body.duration !== "number") return;
    if (body.charge_mode === "elastic" && body.duration !== 3600) {
      ctx.addIssue({ code: "custom", path: ["duration"], message: "must be 3600 when charge_mode is elastic" });
    }
    if (body.charge_mode === "monthly" && (body.duration < 1 || body.duration > 60)) {
      ctx.addIssue({ code: "custom", path: ["duration"], message: "must be a number of months from 1 to 60 when charge_mode is monthly" });
    }
  }, reportAlways);
export type CreateNotebookRequest = z.input<typeof createNotebookRequest>;

export const listNotebooksQuery = z.strictObject({
  ...paging,
  name: z.string().optional(),
  reverse: z.boolean().optional(),
  order_by: z.string().optional(),
  status: z.array(z.string()).optional(),
  endpoints: z.array(z.string()).optional(),
  start_at: z.string().optional(),
  end_at: z.string().optional(),
  owner: z.string().optional(),
});
export type ListNotebooksQuery = z.input<typeof listNotebooksQuery>;

export const stopNotebooksRequest = z.strictObject({
  uuids: z.array(notebookUuid).min(1, "must name at least one notebook"),
  save_image: z.boolean().default(false),
});

export const startNotebooksRequest = z.strictObject({
  uuids: z.array(notebookUuid).min(1, "must name at least one notebook"),
  sku_id: requiredString,
  custom_spec: replicaSpecsRequest.optional(),
});

/** The start request for one notebook on sku `skuId`, with the replica spec to start it with, if any (a resize). */
export function startRequest(uuid: string, skuId: string, customSpec?: z.input<typeof replicaSpecsRequest>): z.input<typeof startNotebooksRequest> {
  return customSpec === undefined ? { uuids: [uuid], sku_id: skuId } : { uuids: [uuid], sku_id: skuId, custom_spec: customSpec };
}

/**
 * An empty time clears it. The notes document only the setters (platform-api
 * B1); an empty value of the same field is how the provider asks for
 * "no stop time" or "no auto-delete time", and the emulator takes it so.
 */
const dateTimeOrClear = dateTime.or(z.literal(""));
export const setStopTimeRequest = z.strictObject({ uuid: notebookUuid, stop_time: dateTimeOrClear });
export const setDeleteTimeRequest = z.strictObject({ uuid: notebookUuid, auto_delete_time: dateTimeOrClear });
export const changeImageRequest = z.strictObject({
  uuid: notebookUuid,
  image: requiredString,
  image_type: imageType,
  secret: imageSecret.optional(),
});

// ---- responses (platform-api A2.2): every field may be absent ----
// Strict only where the provider decides something from the value (uuid,
// status, name); every other field is read as documented when it can be and
// otherwise kept as it came (platform-api B5: the docs type some fields
// differently from page to page).

/**
 * Environment variables: the spec types them as a list of objects, several
 * docs pages as a string; a string holding a JSON list is read as that list.
 */
export const envsField = tolerant(
  z.preprocess((raw) => {
    if (typeof raw !== "string") return raw;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }, z.array(z.looseObject({}))),
);

export const volumeSpec = z.looseObject({
  id: looseNumber,
  file_set: tolerant(z.string()),
  mount_path: tolerant(z.string()),
  volume_type: tolerant(z.string()),
  file_type: tolerant(z.string()),
  quota: looseNumber,
  permission: tolerant(z.string()),
  owner: tolerant(z.string()),
  pvc_name: tolerant(z.string()),
  notebook_uuid: tolerant(z.string()),
});

export const replicaSpecs = z.looseObject({
  id: looseNumber,
  replicas: looseNumber,
  specs: looseString,
  replica_type: tolerant(z.string()),
  rg_id: tolerant(z.string()),
  custom_cpu: looseNumber,
  custom_memory: looseNumber,
  custom_gpu: looseNumber,
  custom_gpu_list: tolerant(z.array(looseString)),
  custom_gpu_name: looseString,
  custom_gpu_memory: looseString,
  custom_gpu_type: looseString,
  custom_system_disk_size: looseNumber,
  custom_data_disk_size: looseNumber,
  custom_infiniband: looseNumber,
  custom_aipods_type: looseString,
  custom_hashrate_allocation: looseNumber,
  custom_network_description: looseString,
  custom_cpu_model: looseString,
  custom_cpu_manufacturer: looseString,
  notebook_uuid: tolerant(z.string()),
  template_id: looseNumber,
});

/** The services a notebook's servers route can answer for (its docs page lists these). */
export const notebookServices = ["jupyter", "vscode", "ssh", "custom", "node_port"] as const;

/** Which notebook's servers to read, and which services (all by default). */
export const notebookServersQuery = z.strictObject({
  namespace: pathSegment,
  uuid: notebookUuid,
  services: z.array(z.enum(notebookServices)).min(1, "must name at least one service").optional(),
});
export type NotebookServersQuery = z.input<typeof notebookServersQuery>;

export const serverInfo = z.looseObject({
  status: tolerant(z.boolean()),
  protocol: tolerant(z.string()),
  server_name: tolerant(z.string()),
  server_type: tolerant(z.string()),
  url: tolerant(z.string()),
  target_port: looseNumber,
  password: tolerant(z.string()),
});

export type ServerInfo = z.output<typeof serverInfo>;

/**
 * Notebook statuses the provider acts on: the spec's Pending, Running and
 * Failed ("etc.", platform-api B2) and Stopped, which the stop operation
 * leads to.
 */
export const notebookStatuses = ["Pending", "Running", "Stopped", "Failed"] as const;
export type NotebookStatus = (typeof notebookStatuses)[number];

/** A known status in its documented spelling whatever the case the platform used; any other word as it came. */
const notebookStatus = maybe(z.string()).transform((word) => {
  if (typeof word !== "string") return word;
  return notebookStatuses.find((known) => known.toLowerCase() === word.trim().toLowerCase()) ?? word;
});

export const notebook = z.looseObject({
  uuid: z.string(),
  name: maybe(z.string()),
  ...ownedObjectFields,
  status: notebookStatus,
  user_name: tolerant(z.string()),
  email: tolerant(z.string()),
  kuid: tolerant(z.string()),
  namespace: tolerant(z.string()),
  image: tolerant(z.string()),
  image_type: tolerant(z.string()),
  server_type: tolerant(z.string()),
  envs: envsField,
  stop_time: tolerant(z.string()),
  auto_delete_time: tolerant(z.string()),
  server: tolerant(z.string()),
  pip: tolerant(z.string()),
  conda: tolerant(z.string()),
  apt: tolerant(z.string()),
  ws_url: tolerant(z.string()),
  volume_specs: tolerant(z.array(volumeSpec)),
  replica_specs: tolerant(replicaSpecs),
  servers: tolerant(z.array(serverInfo)),
  pod_ips: tolerant(z.array(z.unknown())),
  running_time: looseNumber,
});
export type Notebook = z.output<typeof notebook>;

/** Fields of the create request no program sets: the provider fills zone and owner from configuration; service and action mean nothing for a Notebook resource. */
const notProgramFields = ["service", "action", "zone", "owner"] as const;

/**
 * The Notebook kind's outputs, camelCase: the platform's fields of a notebook
 * and the create request's, less the request's fields that are no program's
 * (the provider sets zone and owner from configuration; service and action
 * mean nothing for a Notebook resource), plus the provider's own (how it
 * waits, and the state it keeps the notebook in). The SDK declares exactly
 * these (a unit test compares), and the state records each, null where absent.
 */
export const notebookOutputs: readonly string[] = [
  ...new Set(
    [...Object.keys(notebook.shape), ...Object.keys(createNotebookRequest.shape)]
      .filter((wireName) => !(notProgramFields as readonly string[]).includes(wireName))
      .map(snakeToCamel),
  ),
  "desiredState",
  "waitForReady",
  "readyTimeoutSeconds",
];

/** Outputs kept secret in the state: server details, registry credentials, and envs (their values often hold tokens). */
export const notebookSecretOutputs: readonly string[] = ["servers", "customImageSecret", "envs"];

/** A field of the create request, as a program spells it. */
type NotebookField = keyof Camelized<z.input<typeof createNotebookRequest>>;

/**
 * How a change of each program field applies (platform-api B1): these in
 * place, each by its own operation (set_stop_time, set_delete_time,
 * change_image); `replicaSpecs` in place by a stop and a start when it names a
 * sku in `specs`; every other field of the create request replaces the
 * notebook. The provider's own fields (notebookOutputs' last three) change in
 * place too. A name that is not a field of the request does not compile.
 */
export const notebookInPlaceFields = ["stopTime", "autoDeleteTime", "image", "imageType", "customImageSecret"] as const satisfies readonly NotebookField[];

/** The provider's own Notebook fields (how it waits, and the state it keeps the notebook in), with their defaults; each changes in place. */
const notebookProviderDefaults = { desiredState: "Running", waitForReady: true, readyTimeoutSeconds: 600 } as const;

/** Program fields whose change is in place only under a condition (platform-api B1: the start operation takes a sku and a size). */
const notebookInPlaceWhen = { replicaSpecs: "it names a sku in `specs` (applied by a stop and a start)" } as const satisfies Partial<Record<NotebookField, string>>;

const notebookInPlace = [...notebookInPlaceFields, ...(Object.keys(notebookProviderDefaults) as Array<keyof typeof notebookProviderDefaults>)] as const;

/**
 * The Notebook kind, described once (client/wire/kind.ts): from the create
 * request's schema and the few choices above. Every program field of the
 * request that is neither in place nor conditionally so replaces the notebook.
 */
export const notebookKind = {
  inPlace: notebookInPlace,
  inPlaceWhen: notebookInPlaceWhen,
  replace: Object.keys(createNotebookRequest.shape)
    .filter((wireName) => !(notProgramFields as readonly string[]).includes(wireName))
    .map(snakeToCamel)
    .filter((field) => !(notebookInPlace as readonly string[]).includes(field) && !(field in notebookInPlaceWhen)),
  readAtCreateOnly: ["adoptId"],
  defaults: notebookProviderDefaults,
  outputs: notebookOutputs,
  secretOutputs: notebookSecretOutputs,
} as const satisfies KindDescription;
