/** Builds the stored replica and volume specs of a notebook from a request, checking what they refer to. */
import { ApiError } from "../errors";
import type { ReplicaSpecsInput as ReplicaInput, VolumeSpecInput as VolumeInput } from "../schemas/notebook";
import type { HandlerContext } from "./context";
import { replicaRefs } from "./tenancy";

/**
 * The replica spec as the platform echoes it (platform-api A2.2): every field present,
 * absent custom values filled from the referenced template when there is one.
 * The template and group must be the caller's to use (./tenancy.ts).
 */
export function buildReplicaSpecs(ctx: HandlerContext, input: ReplicaInput, uuid: string, where: string, id: number): Record<string, unknown> {
  const { data } = ctx.store;
  const template = replicaRefs(ctx, input, where);
  // platform-api A4.2: a node ID in `specs` needs the group it belongs to.
  if (input.specs !== undefined && input.rg_id === undefined && data.templates.some((t) => t.rg_node_id === input.specs)) {
    throw new ApiError(400, 400, `invalid request body: ${where}.rg_id: is required when specs is a node ID ('${input.specs}')`);
  }
  return {
    id,
    replicas: input.replicas,
    specs: input.specs ?? null,
    replica_type: input.replica_type ?? "Worker",
    rg_id: input.rg_id ?? template?.rg_id ?? null,
    custom_cpu: input.custom_cpu ?? template?.cpu ?? 0,
    custom_memory: input.custom_memory ?? template?.memory ?? 0,
    custom_gpu: input.custom_gpu ?? template?.gpu ?? 0,
    custom_gpu_list: input.custom_gpu_list ?? (template && template.gpu_list.length > 0 ? template.gpu_list : null),
    custom_gpu_name: input.custom_gpu_name ?? template?.gpu_name ?? "",
    custom_gpu_memory: input.custom_gpu_memory ?? (template ? String(template.gpu_memory) : ""),
    custom_gpu_type: input.custom_gpu_type ?? (template && template.gpu > 0 ? "nvidia.com/gpu" : ""),
    custom_system_disk_size: input.custom_system_disk_size ?? 50,
    custom_data_disk_size: input.custom_data_disk_size ?? template?.data_disk_size ?? 0,
    custom_infiniband: input.custom_infiniband ?? template?.ib ?? 0,
    custom_aipods_type: input.custom_aipods_type ?? template?.spec_type ?? "",
    custom_hashrate_allocation: input.custom_hashrate_allocation ?? template?.hashrate_allocation ?? 100,
    custom_network_description: input.custom_network_description ?? "",
    custom_cpu_model: input.custom_cpu_model ?? template?.cpu_model ?? "",
    custom_cpu_manufacturer: input.custom_cpu_manufacturer ?? template?.cpu_manufacturer ?? "",
    notebook_uuid: uuid,
    template_id: input.template_id ?? null,
  };
}

/** The volume specs as echoed, with ids, defaults and PVC names. */
export function buildVolumeSpecs(ctx: HandlerContext, inputs: readonly VolumeInput[], uuid: string, owner: string): Array<Record<string, unknown>> {
  return inputs.map((v) => ({
    id: ctx.store.nextRecordId(),
    file_set: v.file_set,
    mount_path: v.mount_path,
    volume_type: v.volume_type,
    file_type: v.file_type ?? "Directory",
    quota: v.quota,
    permission: v.permission ?? "rw",
    owner: v.owner ?? owner,
    pvc_name: `pvc-${uuid}-${v.file_set.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}`.slice(0, 63),
    notebook_uuid: uuid,
  }));
}
