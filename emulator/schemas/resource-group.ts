/** Request schemas of resource groups and templates: platform-api A4.3 and A4.5, platform-api B1 and B6. */
import { z } from "zod";
import { flag, nonEmpty, paging, uniqueList } from "./common";

const podType = z.enum(["infer", "instance", "job"]);

/**
 * pod_type: the spec types it as a string, its sample sends a list; both are
 * accepted, a string as comma-separated values.
 */
const podTypes = z.preprocess(
  (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()) : v),
  uniqueList(podType).min(1, "must name at least one of infer, instance, job"),
);

/**
 * POST /resource/resource_group (platform-api A4.3): every field required. Strings may
 * be empty: the docs' own sample sends an empty sku_id and description, and
 * no source says the platform refuses them.
 */
export const createResourceGroupBody = z.strictObject({
  name: z.string(),
  description: z.string(),
  sku_id: z.string(),
  pod_type: podTypes,
  customize_enable: flag,
});

/** PUT /resource/resource_group (platform-api B1); the docs' sample sends an empty name. */
export const updateResourceGroupBody = z.strictObject({
  rg_id: nonEmpty,
  name: z.string(),
  description: z.string(),
  pod_type: podTypes,
  customize_enable: flag,
});

/** GET /resource/resource_group (assumed): name, and the public clients' search_word, order_by, reverse (platform-api B6). */
export const listResourceGroupsQuery = z.object({
  ...paging,
  name: z.string().optional(),
  search_word: z.string().optional(),
  order_by: z.string().optional(),
  reverse: z.boolean().optional(),
});

const specType = z.enum(["common", "share_gpu", "vgpu", "only_cpu"]);

/** GET /resource/template (platform-api A4.5). */
export const listTemplatesQuery = z.object({
  pod_type: z.enum(["all", "job", "instance", "infer"]).optional(),
  rg_id: nonEmpty.optional(),
  rg_node_id: nonEmpty.optional(),
  order_by: nonEmpty.optional(),
  reverse: z.boolean().optional(),
  ...paging,
  gpu_name: nonEmpty.optional(),
  template_ids: z.array(z.int().min(0)).optional(),
  spec_type: z.array(specType).optional(),
});

/** POST /resource/template (platform-api B1); the emulator uses it to shape its catalogue. */
export const createTemplateBody = z.strictObject({
  name: nonEmpty,
  cpu: z.number().min(0),
  memory: z.number().min(0),
  gpu: z.number().min(0),
  gpu_memory: z.number().min(0).default(0),
  rg_id: nonEmpty,
  ib: z.number().min(0).default(0),
  rg_node_id: nonEmpty,
  pod_type: z.array(podType).min(1),
  gpu_list: z.array(z.string()).default([]),
  gpu_name: z.string().default(""),
  show_user: z.array(z.string()).default([]),
  hashrate_allocation: z.number().min(0).default(100),
  data_disk_size: z.number().min(0).default(0),
  cpu_manufacturer: z.string().default(""),
  cpu_model: z.string().default(""),
  spec_type: specType.default("common"),
});
