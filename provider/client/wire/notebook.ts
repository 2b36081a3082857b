/** Wire schemas of notebooks (container instances): spec 2.2 and 4.2, platform notes §1. */
import { z } from "zod";
import { dateTime, flag, ownedObjectFields, reportAlways, text, maybe, looseNumber, notebookUuid, paging, pathSegment, requiredString, unique } from "./common";

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

export const setStopTimeRequest = z.strictObject({ uuid: notebookUuid, stop_time: dateTime });
export const setDeleteTimeRequest = z.strictObject({ uuid: notebookUuid, auto_delete_time: dateTime });
export const changeImageRequest = z.strictObject({
  uuid: notebookUuid,
  image: requiredString,
  image_type: imageType,
  secret: imageSecret.optional(),
});

// ---- responses (spec 2.2): every field may be absent ----

export const volumeSpec = z.looseObject({
  id: maybe(z.number()),
  file_set: maybe(z.string()),
  mount_path: maybe(z.string()),
  volume_type: maybe(z.string()),
  file_type: maybe(z.string()),
  quota: maybe(looseNumber),
  permission: maybe(z.string()),
  owner: maybe(z.string()),
  pvc_name: maybe(z.string()),
  notebook_uuid: maybe(z.string()),
});

export const replicaSpecs = z.looseObject({
  id: maybe(z.number()),
  replicas: maybe(z.number()),
  specs: maybe(z.string()),
  replica_type: maybe(z.string()),
  rg_id: maybe(z.string()),
  custom_cpu: maybe(looseNumber),
  custom_memory: maybe(looseNumber),
  custom_gpu: maybe(looseNumber),
  custom_gpu_list: maybe(z.array(z.string())),
  custom_gpu_name: maybe(z.string()),
  custom_gpu_memory: maybe(z.string()),
  custom_gpu_type: maybe(z.string()),
  custom_system_disk_size: maybe(looseNumber),
  custom_data_disk_size: maybe(looseNumber),
  custom_infiniband: maybe(looseNumber),
  custom_aipods_type: maybe(z.string()),
  custom_hashrate_allocation: maybe(looseNumber),
  custom_network_description: maybe(z.string()),
  custom_cpu_model: maybe(z.string()),
  custom_cpu_manufacturer: maybe(z.string()),
  notebook_uuid: maybe(z.string()),
  template_id: maybe(z.number()),
});

export const serverInfo = z.looseObject({
  status: maybe(z.boolean()),
  protocol: maybe(z.string()),
  server_name: maybe(z.string()),
  server_type: maybe(z.string()),
  url: maybe(z.string()),
  target_port: maybe(z.number()),
  password: maybe(z.string()),
});

export const notebook = z.looseObject({
  uuid: z.string(),
  user_name: maybe(z.string()),
  email: maybe(z.string()),
  kuid: maybe(z.string()),
  ...ownedObjectFields,
  namespace: maybe(z.string()),
  image: maybe(z.string()),
  image_type: maybe(z.string()),
  name: maybe(z.string()),
  server_type: maybe(z.string()),
  envs: maybe(z.array(z.looseObject({}))),
  stop_time: maybe(z.string()),
  auto_delete_time: maybe(z.string()),
  server: maybe(z.string()),
  pip: maybe(z.string()),
  conda: maybe(z.string()),
  apt: maybe(z.string()),
  ws_url: maybe(z.string()),
  volume_specs: maybe(z.array(volumeSpec)),
  replica_specs: maybe(replicaSpecs),
  servers: maybe(z.array(serverInfo)),
  pod_ips: maybe(z.array(z.unknown())),
  running_time: maybe(looseNumber),
});
export type Notebook = z.output<typeof notebook>;
