/** Wire schemas of resource groups: platform-api A2.3 and A4.3, platform-api B1. */
import { z } from "zod";
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

/**
 * Resource group as returned (platform-api A2.3). The platform sends `pod_type` as one
 * comma-separated string and the spec's table spells two fields differently
 * from the sample; all forms are accepted and the sample's is kept.
 */
export const resourceGroup = z.preprocess(
  (raw) => {
    if (raw === null || typeof raw !== "object") return raw;
    const { create_at, rescource_type, ...rest } = raw as Record<string, unknown>;
    const podType = rest.pod_type;
    return {
      ...rest,
      created_at: rest.created_at ?? create_at,
      resource_type: rest.resource_type ?? rescource_type,
      pod_type: typeof podType === "string" ? podType.split(",").map((s) => s.trim()).filter(Boolean) : podType,
    };
  },
  z.looseObject({
    rg_id: z.string(),
    name: maybe(z.string()),
    description: tolerant(z.string()),
    ...ownedObjectFields,
    resource_type: tolerant(z.string()),
    pod_type: tolerant(z.array(z.string())),
    customize_enable: looseNumber,
    sku_id: tolerant(z.string()),
  }),
);
export type ResourceGroup = z.output<typeof resourceGroup>;
