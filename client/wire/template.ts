/** Wire schemas of resource templates: platform-api A2.4 and A4.5, platform-api B1. */
import { z } from "zod";
import { maybe, looseNumber, paging, requiredString } from "./common";
import { podType, resourceGroup } from "./resource-group";

export const specType = z.enum(["common", "share_gpu", "vgpu", "only_cpu"]);

export const listTemplatesQuery = z.strictObject({
  pod_type: z.enum(["all", "job", "instance", "infer"]).optional(),
  rg_id: requiredString.optional(),
  rg_node_id: requiredString.optional(),
  order_by: requiredString.optional(),
  reverse: z.boolean().optional(),
  ...paging,
  gpu_name: requiredString.optional(),
  template_ids: z.array(z.int().min(0)).optional(),
  spec_type: z.array(specType).optional(),
});
export type ListTemplatesQuery = z.input<typeof listTemplatesQuery>;

/** Body of create template (platform-api B1); the emulator uses it to shape its catalogue. */
export const createTemplateRequest = z.strictObject({
  name: requiredString,
  cpu: z.number().min(0),
  memory: z.number().min(0),
  gpu: z.number().min(0),
  gpu_memory: z.number().min(0).default(0),
  rg_id: requiredString,
  ib: z.number().min(0).default(0),
  rg_node_id: requiredString,
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
export type CreateTemplateRequest = z.input<typeof createTemplateRequest>;

export const template = z
  .looseObject({
    name: maybe(z.string()),
    cpu: looseNumber,
    memory: looseNumber,
    gpu: looseNumber,
    gpu_memory: looseNumber,
    rg_id: maybe(z.string()),
    ib: looseNumber,
    rg_node_id: maybe(z.string()),
    pod_type: maybe(z.union([z.array(z.string()), z.string()])),
    gpu_list: maybe(z.array(z.string())),
    gpu_name: maybe(z.string()),
    show_user: maybe(z.array(z.string())),
    hashrate_allocation: looseNumber,
    data_disk_size: looseNumber,
    cpu_manufacturer: maybe(z.string()),
    cpu_model: maybe(z.string()),
    spec_type: maybe(z.string()),
    tmp_id: maybe(z.number()),
    resource_group: maybe(resourceGroup),
    rg_node_name: maybe(z.string()),
    show_users_info: maybe(
      z.array(z.looseObject({ user_id: maybe(z.string()), user_name: maybe(z.string()), email: maybe(z.string()), phone: maybe(z.string()) })),
    ),
    salable: maybe(z.boolean()),
    max_applicable_number: looseNumber,
  })
  .meta({ title: "ResourceTemplate" });
export type Template = z.output<typeof template>;
