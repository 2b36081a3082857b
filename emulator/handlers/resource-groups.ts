/** Resource groups: create (spec 4.3), update (platform notes §1), and the assumed get, list and delete. */
import { createResourceGroupRequest, listResourceGroupsQuery, updateResourceGroupRequest } from "../../provider/client/wire";
import { ApiError, notFound, validate } from "../errors";
import type { GroupRecord } from "../records";
import { page, randomId, wireTime } from "../util";
import { type Handler, type HandlerContext, bodyOf, queryOf } from "./context";

/** A group as the platform sends it: `pod_type` joined into one string (platform notes §1). */
export function groupToWire(g: GroupRecord): Record<string, unknown> {
  const { platform: _platform, ...rest } = g;
  return { ...rest, pod_type: g.pod_type.join(",") };
}

function ownGroup(ctx: HandlerContext, rgId: string): GroupRecord {
  const group = ctx.store.data.groups.find((g) => g.rg_id === rgId);
  if (!group) throw notFound(`resource group '${rgId}'`);
  if (group.platform) throw new ApiError(403, 403, `resource group '${rgId}' belongs to the platform and cannot be changed`);
  if (group.user_id !== ctx.user.userId) throw notFound(`resource group '${rgId}'`);
  return group;
}

/** POST /resource/resource_group */
export const createResourceGroup: Handler = (ctx) => {
  const body = bodyOf(createResourceGroupRequest, ctx);
  const time = wireTime(ctx.now);
  const group: GroupRecord = {
    rg_id: randomId("rg-"),
    name: body.name,
    description: body.description,
    sku_id: body.sku_id,
    pod_type: [...body.pod_type],
    customize_enable: body.customize_enable,
    status: "active",
    reason: "",
    user_id: ctx.user.userId,
    root_user_id: ctx.user.userId,
    resource_type: "general",
    created_at: time,
    updated_at: time,
  };
  ctx.store.mutate((d) => d.groups.push(group));
  return { data: groupToWire(group), counts: 0 };
};

/** PUT /resource/resource_group (the body names the group). */
export const updateResourceGroup: Handler = (ctx) => {
  const body = bodyOf(updateResourceGroupRequest, ctx);
  const group = ownGroup(ctx, body.rg_id);
  ctx.store.mutate(() => {
    group.name = body.name;
    group.description = body.description;
    group.pod_type = [...body.pod_type];
    group.customize_enable = body.customize_enable;
    group.updated_at = wireTime(ctx.now);
  });
  return { data: groupToWire(group), counts: 0 };
};

/** GET /resource/resource_group/{rg_id}: the caller's groups and the platform's. */
export const getResourceGroup: Handler = (ctx) => {
  const rgId = ctx.params.rg_id!;
  const group = ctx.store.data.groups.find((g) => g.rg_id === rgId && (g.platform || g.user_id === ctx.user.userId));
  if (!group) throw notFound(`resource group '${rgId}'`);
  return { data: groupToWire(group), counts: 1 };
};

/** GET /resource/resource_group: the caller's groups, oldest first; counts is the total. */
export const listResourceGroups: Handler = (ctx) => {
  const q = queryOf(listResourceGroupsQuery, ctx);
  const name = q.name?.toLowerCase();
  const all = ctx.store.data.groups.filter(
    (g) => !g.platform && g.user_id === ctx.user.userId && (!name || g.name.toLowerCase().includes(name)),
  );
  return { data: page(all, q.offset, q.limit).map(groupToWire), counts: all.length };
};

/** DELETE /resource/resource_group/{rg_id} */
export const deleteResourceGroup: Handler = (ctx) => {
  const group = ownGroup(ctx, validate(updateResourceGroupRequest.shape.rg_id, ctx.params.rg_id, "path"));
  ctx.store.mutate((d) => (d.groups = d.groups.filter((g) => g !== group)));
  return { data: { rg_id: group.rg_id }, counts: 0 };
};
