/** Resource templates: list (platform-api A4.5) and create (platform-api B1, used to shape the catalogue). */
import { z } from "zod";
import { ApiError, validate } from "../errors";
import type { TemplateRecord } from "../records";
import { createTemplateBody, listTemplatesQuery } from "../schemas/resource-group";
import type { Store } from "../state";
import { storedTime, storedToWire } from "../times";
import type { Dialect } from "../types";
import { type Handler, bodyOf, compareValues, listPage, queryOf } from "./context";
import { groupToWire } from "./resource-groups";
import { checkGroupUsable, groupVisible, templateVisible } from "./tenancy";

/**
 * A template as the platform sends it, with its group and the visible users
 * spelled out. With a `viewer`, a group that is not the viewer's to see (a
 * template another account shared on its own group) is left out as null.
 */
export function templateToWire(store: Store, t: TemplateRecord, dialect: Dialect, viewer?: string): Record<string, unknown> {
  const { seeded: _seeded, ...rest } = t;
  const group = store.data.groups.find((g) => g.rg_id === t.rg_id && (viewer === undefined || groupVisible(g, viewer)));
  return {
    ...rest,
    created_at: storedToWire(t.created_at, dialect.bareTimeZone),
    resource_group: group ? groupToWire(group, dialect) : null,
    show_users_info: t.show_user.map((id) => ({ user_id: id, user_name: id, email: `${id}@example.com`, phone: "" })),
  };
}

const SORTABLE = new Set([
  "created_at",
  "tmp_id",
  "name",
  "cpu",
  "memory",
  "gpu",
  "gpu_memory",
  "gpu_name",
  "data_disk_size",
  "hashrate_allocation",
  "rg_node_id",
]);

/** GET /resource/template */
export const listTemplates: Handler = (ctx) => {
  const q = queryOf(listTemplatesQuery, ctx);
  const orderBy = q.order_by ?? "created_at";
  if (!SORTABLE.has(orderBy)) {
    throw new ApiError(400, 400, `invalid request query: order_by: cannot sort by '${orderBy}'; use one of ${[...SORTABLE].join(", ")}`);
  }
  // The spec's default: only general-scheduling templates unless spec_type says otherwise.
  const specTypes = new Set<string>(q.spec_type ?? ["common"]);
  const ids = q.template_ids ? new Set(q.template_ids) : undefined;
  const gpuName = q.gpu_name?.toLowerCase();
  const matching = ctx.store.data.templates.filter(
    (t) =>
      templateVisible(t, ctx.user.userId) &&
      specTypes.has(t.spec_type) &&
      (!q.pod_type || q.pod_type === "all" || t.pod_type.includes(q.pod_type)) &&
      (!q.rg_id || t.rg_id === q.rg_id) &&
      (!q.rg_node_id || t.rg_node_id === q.rg_node_id) &&
      (!gpuName || t.gpu_name.toLowerCase().includes(gpuName)) &&
      (!ids || ids.has(t.tmp_id)),
  );
  const key = orderBy as keyof TemplateRecord;
  matching.sort((a, b) => compareValues(a[key], b[key]) || a.tmp_id - b.tmp_id);
  if (q.reverse) matching.reverse();
  return listPage(ctx, matching, q.offset, q.limit, (t) => templateToWire(ctx.store, t, ctx.dialect, ctx.user.userId));
};

/**
 * POST /resource/template. Besides the documented single object, the emulator
 * accepts an array of them so a test can grow the catalogue in one request.
 * A template goes into the caller's own groups or the platform's (that is how
 * tests grow the shared catalogue), never into another account's.
 */
export const createTemplate: Handler = (ctx) => {
  const bodies = Array.isArray(ctx.body)
    ? validate(z.array(createTemplateBody).min(1, "must hold at least one template"), ctx.body, "body")
    : [bodyOf(createTemplateBody, ctx)];
  for (const [i, b] of bodies.entries()) checkGroupUsable(ctx, b.rg_id, Array.isArray(ctx.body) ? `[${i}].rg_id` : "rg_id");
  const tmpIds = ctx.store.mutate((d) =>
    bodies.map((b) => {
      const t: TemplateRecord = {
        ...b,
        tmp_id: d.nextTemplateId++,
        // A template nobody may see is useless to a test: by default the creator sees it.
        show_user: b.show_user.length > 0 ? b.show_user : [ctx.user.userId],
        rg_node_name: b.rg_node_id,
        salable: true,
        max_applicable_number: 1,
        // Equal times are ordered by tmp_id, so the default order stays the creation order.
        created_at: storedTime(ctx.now),
      };
      d.templates.push(t);
      return t.tmp_id;
    }),
  );
  return { data: { tmp_ids: tmpIds }, counts: tmpIds.length };
};
