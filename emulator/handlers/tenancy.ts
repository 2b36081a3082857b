/**
 * What one key may see and use besides its own namespace:
 * resource groups of its own account and the platform's, and templates whose
 * `show_user` names it (platform-api A2.4). Another account's group or template reads
 * as missing, so a key learns nothing about what others have.
 */
import { ApiError } from "../errors";
import type { GroupRecord, TemplateRecord } from "../records";
import type { HandlerContext } from "./context";

/** True when the caller may see and use `group`: the platform's groups serve every account. */
export function groupVisible(group: GroupRecord, userId: string): boolean {
  return group.platform === true || group.user_id === userId;
}

/** True when `show_user` lists the caller (platform-api A2.4: the users a template is shown to). */
export function templateVisible(template: TemplateRecord, userId: string): boolean {
  return template.show_user.includes(userId);
}

/** The template `tmpId` if the caller sees it; a 404 naming `where` otherwise. */
export function visibleTemplate(ctx: HandlerContext, tmpId: number, where: string): TemplateRecord {
  const template = ctx.store.data.templates.find((t) => t.tmp_id === tmpId && templateVisible(t, ctx.user.userId));
  if (!template) throw new ApiError(404, 404, `${where}: template ${tmpId} not found`);
  return template;
}

/** Checks that the caller may put work in group `rgId`; a 404 naming `where` otherwise. */
export function checkGroupUsable(ctx: HandlerContext, rgId: string, where: string): void {
  if (!ctx.store.data.groups.some((g) => g.rg_id === rgId && groupVisible(g, ctx.user.userId))) {
    throw new ApiError(404, 404, `${where}: resource group '${rgId}' not found`);
  }
}

/**
 * The group and template a replica spec refers to, checked: the template must
 * be shown to the caller, and the group the spec lands in (its own `rg_id`, or
 * else the template's) must be the caller's or the platform's. Returns the
 * template, if any, for the spec's defaults.
 */
export function replicaRefs(ctx: HandlerContext, spec: { rg_id?: string; template_id?: number }, where: string): TemplateRecord | undefined {
  const template = spec.template_id === undefined ? undefined : visibleTemplate(ctx, spec.template_id, `${where}.template_id`);
  if (spec.rg_id !== undefined) checkGroupUsable(ctx, spec.rg_id, `${where}.rg_id`);
  else if (template) checkGroupUsable(ctx, template.rg_id, `${where}.template_id: template ${template.tmp_id}'s rg_id`);
  return template;
}
