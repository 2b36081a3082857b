/** Request schemas of notebooks: platform-api A4.2 and platform-api B1. */
import { z } from "zod";
import { chargeMode, checkDuration, dateTime, flag, imageType, nonEmpty, notebookUuid, paging, reportAlways, uniqueList } from "./common";

/** Replica resource fields of create's `replica_specs` and start's `custom_spec` (platform-api A4.2). */
export const replicaResourceFields = {
  replicas: z.int().min(1, "must be at least 1").default(1),
  specs: nonEmpty.optional(),
  replica_type: nonEmpty.optional(),
  rg_id: nonEmpty.optional(),
  custom_cpu: z.int().min(0).optional(),
  custom_memory: z.int().min(0).optional(),
  custom_gpu: z.int().min(0).optional(),
  custom_gpu_list: uniqueList(nonEmpty).optional(),
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

/** `replica_specs` of create and `custom_spec` of start. */
export const replicaSpecsBody = z.strictObject(replicaResourceFields);
/** Validated replica spec. */
export type ReplicaSpecsInput = z.output<typeof replicaSpecsBody>;

/** One mounted volume (platform-api A4.2). */
export const volumeSpecBody = z.strictObject({
  file_set: nonEmpty,
  mount_path: nonEmpty,
  volume_type: nonEmpty,
  file_type: z.enum(["Directory", "File"]).optional(),
  quota: z.int().min(0).default(0),
  permission: z.enum(["rw", "ro"]).optional(),
  owner: z.string().optional(),
});
/** Validated volume spec. */
export type VolumeSpecInput = z.output<typeof volumeSpecBody>;

/** Registry credentials: username and password are required when has_auth is true (platform-api A4.2). */
const imageSecret = z
  .strictObject({ has_auth: z.boolean().optional(), username: z.string().optional(), password: z.string().optional() })
  .superRefine((secret, ctx) => {
    if (secret?.has_auth !== true) return;
    for (const key of ["username", "password"] as const) {
      if (!secret[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when has_auth is true" });
    }
  }, reportAlways);

/** POST /notebooks/namespaces/{namespace}/create (platform-api A4.2). */
export const createNotebookBody = z
  .strictObject({
    charge_mode: chargeMode,
    duration: z.int(),
    auto_renew: flag.optional(),
    next_charge_mode: chargeMode.optional(),
    user_id: nonEmpty,
    root_user_id: nonEmpty.optional(),
    namespace: nonEmpty,
    image: nonEmpty,
    image_type: imageType,
    name: nonEmpty,
    server_type: z.enum(["jupyter", "code_server", "rstudio"]),
    envs: z.array(z.record(z.string(), z.unknown())).optional(),
    stop_time: dateTime.optional(),
    auto_delete_time: dateTime.optional(),
    replica_specs: replicaSpecsBody,
    volume_specs: z.array(volumeSpecBody).optional(),
    custom_image_secret: imageSecret.optional(),
    pip: z.string().optional(),
    conda: z.string().optional(),
    apt: z.string().optional(),
    custom_first: z.string().optional(),
    custom_second: z.string().optional(),
    // The spec's sample body carries these four; their roles are not shown.
    service: z.string().optional(),
    action: z.string().optional(),
    zone: z.string().optional(),
    owner: z.string().optional(),
  })
  .superRefine((body, ctx) => checkDuration(body, ctx), reportAlways);

/** GET /notebooks/namespaces/{namespace}/notebooks (platform-api B1, and the SDK's list filters). */
export const listNotebooksQuery = z.object({
  ...paging,
  name: z.string().optional(),
  image_name: z.string().optional(),
  reverse: z.boolean().optional(),
  order_by: z.string().optional(),
  status: z.array(z.string()).optional(),
  start_at: dateTime.optional(),
  end_at: dateTime.optional(),
  owner: z.string().optional(),
});

/** POST .../notebooks/stop */
export const stopNotebooksBody = z.strictObject({
  uuids: z.array(notebookUuid).min(1, "must name at least one notebook"),
  save_image: z.boolean().default(false),
});

/** POST .../notebooks/start: sku_id is required (platform-api B1). */
export const startNotebooksBody = z.strictObject({
  uuids: z.array(notebookUuid).min(1, "must name at least one notebook"),
  sku_id: nonEmpty,
  custom_spec: replicaSpecsBody.optional(),
});

/**
 * An empty string clears the time. How the platform clears a stop or
 * auto-delete time is not documented (platform-api B1 lists only the
 * setters); the console's "no stop time" has to reach it somehow, and an empty
 * value of the same field is the form the provider sends.
 */
const dateTimeOrClear = dateTime.or(z.literal(""));
/** POST .../notebooks/set_stop_time */
export const setStopTimeBody = z.strictObject({ uuid: notebookUuid, stop_time: dateTimeOrClear });
/** POST .../notebooks/set_delete_time */
export const setDeleteTimeBody = z.strictObject({ uuid: notebookUuid, auto_delete_time: dateTimeOrClear });
/** POST .../notebooks/change_image */
export const changeImageBody = z.strictObject({ uuid: notebookUuid, image: nonEmpty, image_type: imageType, secret: imageSecret.optional() });

/** GET .../notebooks/{uuid}/servers: services default to all (the docs list jupyter, vscode, ssh, custom, node_port). */
export const notebookServersQuery = z.object({ services: z.array(z.string()).optional() });

/** GET /monitoring/namespaces/{namespace}/notebook/disk (platform-api A4.4). */
export const diskMetricsQuery = z.object({ uuid: notebookUuid.optional() });
