/** Wire schemas of notebooks (container instances): platform-api A2.2 and A4.2, platform-api B1. */
import { z } from "zod";
import type { DeclaredOutput, KindDeclaration, KindDescription } from "./kind";
import { snakeToCamel } from "../case";
import {
  notebookDefaults,
  notebookFields,
  notebookFieldsChanging,
  notebookInPlaceWhen,
  requiredInPrograms,
  type NotebookFieldDescription,
  type NotebookFieldName,
} from "./notebook-fields";
import { replicaSpecsRequest } from "./notebook-request";
import { dateTime, looseNumber, looseString, maybe, notebookUuid, ownedObjectFields, paging, pathSegment, requiredString, tolerant } from "./common";

export * from "./notebook-request";
export {
  changeImageRequest,
  changeImageBody,
  createNotebookRequest,
  notebookFields,
  providerFields,
  requiredInPrograms,
  type CreateNotebookRequest,
  type NotebookChange,
  type NotebookFieldName,
  type NotebookProviderFieldValues,
} from "./notebook-fields";

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
  z.preprocess(
    (raw) => {
      if (typeof raw !== "string") return raw;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    },
    z.array(z.looseObject({})),
  ),
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

export const serverInfo = z
  .looseObject({
    status: tolerant(z.boolean()),
    protocol: tolerant(z.string()),
    server_name: tolerant(z.string()),
    server_type: tolerant(z.string()),
    url: tolerant(z.string()),
    target_port: looseNumber,
    password: tolerant(z.string()),
  })
  .meta({ title: "NotebookServer" });

export type ServerInfo = z.output<typeof serverInfo>;

/**
 * Notebook statuses the provider acts on: the spec's Pending, Running and
 * Failed ("etc.", platform-api B2) and Stopped, which the stop operation
 * leads to.
 */
export const notebookStatuses = ["Pending", "Running", "Stopped", "Failed"] as const;

/** A known status in its documented spelling whatever the case the platform used; any other word as it came. */
const notebookStatus = maybe(z.string())
  .transform((word) => {
    if (typeof word !== "string") return word;
    return notebookStatuses.find((known) => known.toLowerCase() === word.trim().toLowerCase()) ?? word;
  })
  // Still a string once read: the JSON Schema of the answer (the plugin's schema) says so.
  .pipe(maybe(z.string()));

export const notebook = z
  .looseObject({
    uuid: z.string().describe("Unique id of the notebook (also the resource id), at most 36 characters."),
    name: maybe(z.string()),
    ...ownedObjectFields,
    reason: ownedObjectFields.reason.describe("Reason of the last state change, when given."),
    status: notebookStatus.describe("State on the platform: Pending, Running, Stopped, Failed, …"),
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
    server: tolerant(z.string()).describe("Connection information."),
    pip: tolerant(z.string()),
    conda: tolerant(z.string()),
    apt: tolerant(z.string()),
    ws_url: tolerant(z.string()).describe("WebSocket service address (path form)."),
    volume_specs: tolerant(z.array(volumeSpec)),
    replica_specs: tolerant(replicaSpecs),
    servers: tolerant(z.array(serverInfo)).describe(
      "Servers of the notebook (protocol, name, type, url, port, status). Their passwords are not kept in the state: read them with getNotebookServers.",
    ),
    pod_ips: tolerant(z.array(z.unknown())),
    running_time: looseNumber.describe("Accumulated running time in seconds."),
  })
  .meta({ title: "NotebookInfo" });
export type Notebook = z.output<typeof notebook>;

const fieldNames = Object.keys(notebookFields) as NotebookFieldName[];

/**
 * The Notebook kind's outputs, camelCase: the platform's fields of a notebook
 * and every field a program sets (notebook-fields.ts). The SDK declares
 * exactly these (a unit test compares), and the state records each, null
 * where absent. A field read only at create (adoptId) is not recorded.
 */
export const notebookOutputs: readonly string[] = [
  ...new Set([...Object.keys(notebook.shape).map(snakeToCamel), ...fieldNames.filter((name) => notebookFields[name].change !== "createOnly")]),
];

/** Outputs kept secret in the state: the fields the table marks secret, and the servers the platform reports (their passwords). */
export const notebookSecretOutputs: readonly string[] = [...fieldNames.filter((name) => "secret" in notebookFields[name]), "servers"];

/**
 * The parts of a notebook's object fields that are secret wherever the value
 * goes (the SDK marks them, the schema declares them): the table's, and the
 * password of each server the platform reports.
 */
export const notebookSecretParts: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(fieldNames.flatMap((name) => ("secretParts" in notebookFields[name] ? [[name, notebookFields[name].secretParts]] : []))),
  servers: ["password"],
};

/**
 * What the plugin's schema declares of a Notebook: each field of the table in
 * the program's form, and each output with its documentation (the platform's
 * own fields with their rules; one that echoes a field has the field's).
 */
function notebookDeclaration(): KindDeclaration {
  const inputs = Object.fromEntries(
    fieldNames.map((name) => {
      const field: NotebookFieldDescription = notebookFields[name];
      return [name, { schema: field.program ?? field.schema, doc: field.doc, required: requiredInPrograms(name) }];
    }),
  );
  const platform = new Map(Object.entries(notebook.shape).map(([wireName, schema]) => [snakeToCamel(wireName), schema]));
  const outputs = Object.fromEntries(
    notebookOutputs.map((name): [string, DeclaredOutput] => {
      const field: NotebookFieldDescription | undefined = name in notebookFields ? notebookFields[name as NotebookFieldName] : undefined;
      const doc = field?.outputDoc ?? platform.get(name)?.description ?? field?.doc;
      // Kept as the platform sent them when they do not parse (`tolerant`): typed, an odd answer would fail every refresh of a Go program.
      if (name === "servers") return [name, { schema: z.array(z.unknown()), doc }];
      return [name, field ? { doc } : { schema: platform.get(name)!, doc }];
    }),
  );
  return {
    doc:
      "A notebook (container instance) on the AICP platform, running jupyter, code_server or rstudio from an image on the resources of `replicaSpecs`. " +
      "The resource id is the notebook's `uuid`. Create waits until it is Running (or Stopped when `desiredState` says so), failing with the " +
      "platform's reason. Passwords are never written to the state: the registry password is kept as a secret input only, and server passwords " +
      "come from getNotebookServers.",
    inputs,
    outputs,
  };
}

/** The Notebook kind (client/wire/kind.ts), from its field table (notebook-fields.ts). */
export const notebookKind = {
  // By write, in the order the writes are sent, then what a stop or start applies, then what is only recorded.
  inPlace: [
    ...notebookFieldsChanging("setStopTime"),
    ...notebookFieldsChanging("setDeleteTime"),
    ...notebookFieldsChanging("changeImage"),
    ...fieldNames.filter((name) => notebookFields[name].change === "stopAndStart" && !("inPlaceWhen" in notebookFields[name])),
    ...notebookFieldsChanging("record"),
  ],
  inPlaceWhen: notebookInPlaceWhen,
  replace: notebookFieldsChanging("replace"),
  readAtCreateOnly: notebookFieldsChanging("createOnly"),
  defaults: notebookDefaults,
  outputs: notebookOutputs,
  secretOutputs: notebookSecretOutputs,
  declaration: notebookDeclaration(),
} as const satisfies KindDescription;
