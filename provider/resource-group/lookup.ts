/**
 * How a ResourceGroup is found on the platform (resource-group/index.ts): by exact
 * name among the configured user's groups and recognised by the mark in its
 * description (ownership.ts), a provisional id resolved by that mark, "gone"
 * asked twice, and the errors of unconfirmed creates.
 */
import type { ResourceGroup as WireGroup } from "../../client/wire";
import { collectAll } from "../../client/paging";
import type { AicpError } from "../../client/errors";
import { hasZone, instantOf } from "../../client/times";
import { currentClient, currentSettings } from "../context";
import { pastWindow, stillUnconfirmed } from "../create-errors";
import { clockSlackMs, uncertaintyOf } from "../create-evidence";
import { isProvisional, lookedUpTwice, type NameHolders, resolveProvisional } from "../create-once";
import { groupMarkOf } from "../ownership";
import { currentTimings } from "../timing";
import type { ResourceGroupOutputs } from "./shape";

/** The groups holding `name`, told apart by `mark` (create-once.ts). */
export function groupNameHolders(name: string, mark: string | undefined): NameHolders<WireGroup> {
  return { ...byMark(name, mark), noun: "resource group", place: "this account", name, statusOf: (g) => g.status ?? undefined };
}

/** Finds the configured user's groups of exactly this name and recognises ours by the mark (and, from a copy, by id or creation time). */
export function byMark(name: string, mark: string | undefined) {
  const client = currentClient();
  const user = currentSettings().userId;
  return {
    mark,
    idOf: (g: WireGroup) => g.rg_id,
    createdAtOf: (g: WireGroup) => (typeof g.created_at === "string" ? instantOf(g.created_at, client.timeZone.offset ?? 0) : NaN),
    createdAtUncertaintyMs: (g: WireGroup) => uncertaintyOf(g.created_at, client.timeZone.offset),
    markOf: (g: WireGroup) => groupMarkOf(g.description),
    findByName: async () => {
      const listed = await collectAll(
        (offset, limit) => client.listResourceGroups({ name, offset, limit }),
        {},
        (g) => g.rg_id,
      );
      // A user id in either case is the same user: namespaces are its lower case (DESIGN.md, Configuration), and so is every other comparison.
      return listed.filter((g) => g.name === name && (!user || !g.user_id || g.user_id.toLowerCase() === user.toLowerCase()));
    },
  };
}

/** The group a recorded id stands for (a provisional id is resolved by the mark, see create-once.ts). */
export async function resolveGroup(id: string, props: Partial<ResourceGroupOutputs> & { createSentAt?: unknown }, waitMs: number) {
  if (!isProvisional(id)) return { rgId: id };
  if (typeof props.rgId === "string" && props.rgId !== "") return { rgId: props.rgId };
  const resolved = await resolveProvisional(byMark(String(props.name), props.ownerMark), props.createSentAt, waitMs);
  return "found" in resolved ? { rgId: resolved.found.rg_id, found: resolved.found } : resolved;
}

/** The group, asked twice a pause apart before it counts as gone (create-once.ts). */
export function confirmedGroup(rgId: string): Promise<WireGroup | undefined> {
  return lookedUpTwice(() => currentClient().getResourceGroup(rgId));
}

/** The error of an operation on a group whose create is still unconfirmed. */
export function groupUnconfirmed(props: Partial<ResourceGroupOutputs> & { createSentAt?: unknown }, until: string, unproven?: string): AicpError {
  return stillUnconfirmed("resource group", "this account", props, until, unproven);
}

/** The error of an operation on a group whose unconfirmed create's window has passed without it. */
export function groupPastWindow(id: string, props: Partial<ResourceGroupOutputs> & { createSentAt?: unknown }, until: string, unproven?: string): AicpError {
  return pastWindow("resource group", "this account", id, props, until, unproven);
}

/**
 * How long ago the group was created, when that is recent enough for the
 * platform not to list it yet: within the unconfirmed-create window.
 * Measured from when this machine had the create's answer, as recorded; a
 * state without that record (an earlier version's, a group taken over) reads
 * the platform's createdAt, only where its zone is known (written in the
 * value, configured or learned): a bare UTC+8 time read as UTC is eight hours
 * off. Undefined otherwise, and when the moment lies ahead of this machine's
 * clock by more than the clock slack: it proves nothing, and would keep a
 * gone group recorded for hours.
 */
export function recentCreateAge(props: ResourceGroupOutputs): number | undefined {
  const answeredAt = typeof props.createAnsweredAt === "string" ? Date.parse(props.createAnsweredAt) : NaN;
  const age = Number.isNaN(answeredAt) ? ageByPlatform(props) : Date.now() - answeredAt;
  return age !== undefined && age > -clockSlackMs && age < currentTimings().unconfirmedCreateWindowMs ? Math.max(age, 0) : undefined;
}

/** The age by the platform's createdAt, where its zone is known; undefined otherwise. */
function ageByPlatform(props: ResourceGroupOutputs): number | undefined {
  const createdAt = (props as { createdAt?: unknown }).createdAt;
  const offset = currentClient().timeZone.offset;
  if (typeof createdAt !== "string" || (offset === undefined && !hasZone(createdAt))) return undefined;
  const at = instantOf(createdAt, offset ?? 0);
  return Number.isNaN(at) ? undefined : Date.now() - at;
}
