/**
 * The parts of a notebook's create request (platform-api A4.2) that other
 * requests share: the enums, the replica spec (also start's `custom_spec`),
 * a mounted volume, the registry credentials (also change_image's `secret`),
 * and an environment variable. The request itself is built from the
 * Notebook's field table (notebook-fields.ts).
 */
import { z } from "zod";
import { flag, reportAlways, requiredString, text, unique } from "./common";

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

export const replicaSpecsRequest = z.strictObject(replicaResourceFields).meta({ title: "ReplicaSpecs" });

export const volumeSpecRequest = z
  .strictObject({
    file_set: requiredString,
    mount_path: requiredString.regex(/^\//, "must be an absolute path starting with '/'"),
    volume_type: requiredString,
    file_type: z.enum(["Directory", "File"]).optional(),
    quota: z.int().min(0, "must be 0 or more").default(0),
    permission: z.enum(["rw", "ro"]).optional(),
    owner: z.string().optional(),
  })
  .meta({ title: "VolumeSpec" });

/** Credentials of a custom image registry; both required when `has_auth` is true. */
const imageSecretFields = { has_auth: z.boolean().optional(), username: z.string().optional(), password: z.string().optional() };

export const imageSecret = z.strictObject(imageSecretFields).superRefine((secret, ctx) => {
  if (secret?.has_auth !== true) return;
  for (const key of ["username", "password"] as const) {
    if (!secret[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when has_auth is true" });
  }
}, reportAlways);

/**
 * The registry credentials as a program gives them: the password, or the
 * name of an environment variable the provider reads it from where pulumi
 * runs (provider/notebook/inputs.ts resolveImageSecret), never sent as such.
 */
export const imageSecretInProgram = z.strictObject({ ...imageSecretFields, password_from_env: z.string().optional() }).meta({ title: "ImageSecret" });

/** An environment variable of the notebook (item fields are not shown by the spec). */
export const envVar = z.looseObject({ name: requiredString.pipe(text(256)), value: text(65536) }).meta({ title: "Env" });

/**
 * An environment variable as a program gives it: its value, or the name of an
 * environment variable the provider reads the value from where pulumi runs
 * (provider/notebook/inputs.ts resolveEnvs), never sent as such; what
 * `pulumi import` writes, so an env value never lands in code.
 */
export const envVarInProgram = z
  .looseObject({ name: requiredString.pipe(text(256)), value: text(65536).optional(), value_from_env: z.string().min(1).optional() })
  .meta({ title: "Env" });
