/** Resource groups: create (platform-api A4.3), update (platform-api B1), and the assumed get, list and delete (platform-api B2). */
import { ApiError, notFound } from "../errors";
import type { GroupRecord } from "../records";
import { createResourceGroupBody, listResourceGroupsQuery, updateResourceGroupBody } from "../schemas/resource-group";
import { storedMs, storedTime, storedToWire } from "../times";
import type { Dialect } from "../types";
import { randomId } from "../util";
import { type Handler, type HandlerContext, bodyOf, compareValues, listPage, queryOf } from "./context";
import { groupVisible } from "./tenancy";

/** A group as the platform sends it: `pod_type` joined into one string (platform-api B1), times in the dialect's zone. */
export function groupToWire(g: GroupRecord, dialect: Dialect): Record<string, unknown> {
  const { platform: _platform, ...rest } = g;
  return {
    ...rest,
    pod_type: g.pod_type.join(","),
    created_at: storedToWire(g.created_at, dialect.bareTimeZone),
    updated_at: storedToWire(g.updated_at, dialect.bareTimeZone),
  };
}

function ownGroup(ctx: HandlerContext, rgId: string): GroupRecord {
  const group = ctx.store.data.groups.find((g) => g.rg_id === rgId);
  if (!group) throw notFound(`resource group '${rgId}'`);
  if (group.platform) throw new ApiError(403, 403, `resource group '${rgId}' belongs to the platform and cannot be changed`);
  // Another account's group is not disclosed: it reads as missing.
  if (group.user_id !== ctx.user.userId) throw notFound(`resource group '${rgId}'`);
  return group;
}

/** POST /resource/resource_group: data is one object, counts 0 (platform-api A4.3). */
export const createResourceGroup: Handler = (ctx) => {
  const body = bodyOf(createResourceGroupBody, ctx);
  const time = storedTime(ctx.now);
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
  return { data: groupToWire(group, ctx.dialect), counts: 0 };
};

/** PUT /resource/resource_group (the body names the group). */
export const updateResourceGroup: Handler = (ctx) => {
  const body = bodyOf(updateResourceGroupBody, ctx);
  const group = ownGroup(ctx, body.rg_id);
  ctx.store.mutate(() => {
    group.name = body.name;
    group.description = body.description;
    group.pod_type = [...body.pod_type];
    group.customize_enable = body.customize_enable;
    group.updated_at = storedTime(ctx.now);
  });
  return { data: groupToWire(group, ctx.dialect), counts: 0 };
};

/** GET /resource/resource_group/{rg_id}: the caller's groups and the platform's (and a deleted one that lingers, see misbehaviour.ts). */
export const getResourceGroup: Handler = (ctx) => {
  const rgId = ctx.params.rg_id!;
  const stored = ctx.store.data.groups.find(
    (g) => g.rg_id === rgId && groupVisible(g, ctx.user.userId) && ctx.misbehaviour.listed(storedMs(g.created_at), ctx.now),
  );
  const group = stored ?? ctx.misbehaviour.lingeringGroups(ctx.user.userId, ctx.now).find((g) => g.rg_id === rgId);
  if (!group) throw notFound(`resource group '${rgId}'`);
  return { data: groupToWire(group, ctx.dialect), counts: 1 };
};

const GROUP_ORDER = new Set(["created_at", "updated_at", "name", "rg_id"]);

/**
 * GET /resource/resource_group: the caller's groups, oldest first; `name` and
 * the public clients' `search_word` match part of the name in any case.
 */
export const listResourceGroups: Handler = (ctx) => {
  const q = queryOf(listResourceGroupsQuery, ctx);
  const orderBy = q.order_by || "created_at";
  if (!GROUP_ORDER.has(orderBy)) {
    throw new ApiError(400, 400, `invalid request query: order_by: cannot sort by '${orderBy}'; use one of ${[...GROUP_ORDER].join(", ")}`);
  }
  const words = [q.name, q.search_word].filter((w): w is string => !!w).map((w) => w.toLowerCase());
  const all = ctx.misbehaviour.shown(
    [...ctx.store.data.groups, ...ctx.misbehaviour.lingeringGroups(ctx.user.userId, ctx.now)].filter(
      (g) => !g.platform && g.user_id === ctx.user.userId && words.every((w) => g.name.toLowerCase().includes(w)),
    ),
    ctx.now,
    (g) => g.name,
    (g) => storedMs(g.created_at),
    words.length > 0,
  );
  const key = orderBy as keyof GroupRecord;
  const sorted = all.map((g, i) => ({ g, i })).sort((a, b) => compareValues(a.g[key], b.g[key]) || a.i - b.i);
  if (q.reverse) sorted.reverse();
  return listPage(ctx, sorted, q.offset, q.limit, ({ g }) => groupToWire(g, ctx.dialect));
};

/** DELETE /resource/resource_group/{rg_id} */
export const deleteResourceGroup: Handler = (ctx) => {
  const group = ownGroup(ctx, ctx.params.rg_id!);
  ctx.store.mutate((d) => (d.groups = d.groups.filter((g) => g !== group)));
  // Gone from the store (a second delete or an update finds nothing), but answers may still show it.
  ctx.misbehaviour.afterGroupDelete(group, ctx.now);
  return { data: { rg_id: group.rg_id }, counts: 0 };
};
