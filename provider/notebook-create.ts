/**
 * How a notebook comes to be recorded: the create-once path (create-once.ts:
 * found by its exact name, owned by the mark in its envs, ownership.ts, and
 * resolved by that mark when the state holds only a provisional id), a
 * take-over by uuid (`adoptId`), and what the lifecycle records and reports
 * beside its results: the errors of a partly made notebook and of
 * unconfirmed creates, the uuid an earlier update resolved, and the zone of
 * bare date-times read back from the state.
 *
 * A take-over needs a deliberate id, never a name (a name alone proves
 * nothing). It is refused, with nothing changed, when another Pulumi
 * resource's mark is on the notebook, when its name differs from one the
 * program pins (notebooks cannot be renamed), or when matching the program
 * would replace it: taking a notebook over must never destroy the work in it.
 */
import type * as wire from "../client/wire";
import type { AicpClient } from "../client/client";
import { instantOf, hasZone, parseZone, withZone, zoneOf } from "../client/times";
import { type CreateTarget, isProvisional, resolveProvisional, partlyCreated, pastWindow, stillUnconfirmed } from "./create-once";
import { notebookMarkOf, withMarkEnv } from "./ownership";
import { AicpError } from "../client/errors";
import type { NotebookListing } from "./notebook-listing";
import { diffNotebook, type NotebookInputs } from "./notebook-inputs";
import { outputs, type NotebookOutputs } from "./notebook-outputs";
import { currentClient, currentSettings } from "./context";
import { NotebookFailed } from "./notebook-wait";
import { StartRefused } from "./notebook-update";

/** Sends one write and forgets the listing of its namespace afterwards. */
export type Write = <T>(namespace: string, send: () => Promise<T>) => Promise<T>;

/** The create-once target of one notebook body. */
export function notebookTarget(
  client: AicpClient,
  write: Write,
  body: wire.CreateNotebookRequest,
  mark: string | undefined,
  watchMs: number,
): CreateTarget<wire.Notebook> {
  const namespace = body.namespace;
  return {
    ...byMark(client, namespace, body.name, mark),
    noun: "notebook",
    place: `namespace ${namespace}`,
    name: body.name,
    statusOf: (n) => n.status ?? undefined,
    send: () => write(namespace, () => client.createNotebook(mark === undefined ? body : { ...body, envs: withMarkEnv(body.envs, mark) })),
    // A Failed notebook of ours is removed by the platform once its auto-delete time passes.
    removeFailed: (n) => write(namespace, () => client.setDeleteTime(namespace, n.uuid, nowOnTheWire())),
    watchMs,
  };
}

/**
 * Its auto-delete time has passed, and lies after its creation (a zero-time
 * placeholder for "none" does not count): a delete, ours before a replacement
 * or a removal of a Failed one, is under way.
 */
function goingAway(n: wire.Notebook, zone: number): boolean {
  if (typeof n.auto_delete_time !== "string" || n.auto_delete_time === "") return false;
  const at = instantOf(n.auto_delete_time, zone);
  const created = typeof n.created_at === "string" ? instantOf(n.created_at, zone) : NaN;
  return !Number.isNaN(at) && at <= Date.now() && (Number.isNaN(created) || at >= created);
}

/** Looks a notebook up by name and recognises it by its mark (and, from a copy, by its id or creation time: create-once.ts madeBy). */
function byMark(client: AicpClient, namespace: string, name: string, mark: string | undefined) {
  return {
    mark,
    idOf: (n: wire.Notebook) => n.uuid,
    createdAtOf: (n: wire.Notebook) => (typeof n.created_at === "string" ? instantOf(n.created_at, client.timeZone.offset ?? 0) : NaN),
    markOf: (n: wire.Notebook) => notebookMarkOf(n.envs),
    goingAway: (n: wire.Notebook) => goingAway(n, client.timeZone.offset ?? 0),
    findByName: () => client.findNotebooksByName(namespace, name),
  };
}

/** What the state recorded for a notebook whose create was not confirmed. */
interface ProvisionalProps {
  namespace?: unknown;
  name?: unknown;
  ownerMark?: unknown;
  createSentAt?: unknown;
  uuid?: unknown;
}

/**
 * The notebook a recorded id stands for: the id itself; for a provisional id,
 * the uuid an earlier update resolved, else the notebook its create made, now
 * listed with the mark ("pending" while it may still appear, "pastWindow" after).
 */
export async function resolveNotebook(
  client: AicpClient,
  id: string,
  props: ProvisionalProps,
  waitMs: number,
): Promise<{ uuid: string; found?: wire.Notebook } | { pending: string } | { pastWindow: string }> {
  if (!isProvisional(id)) return { uuid: id };
  if (typeof props.uuid === "string" && props.uuid !== "") return { uuid: props.uuid };
  const mark = typeof props.ownerMark === "string" ? props.ownerMark : undefined;
  const resolved = await resolveProvisional(byMark(client, String(props.namespace), String(props.name), mark), props.createSentAt, waitMs);
  return "found" in resolved ? { uuid: resolved.found.uuid, found: resolved.found } : resolved;
}

/** Now, as the platform's date-time form without fraction. */
export function nowOnTheWire(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What the take-over will do: the notebook, the inputs with its name, and the properties changed in place. */
export interface Adoption {
  notebook: wire.Notebook;
  inputs: NotebookInputs;
  changes: string[];
}

/** Looks the notebook up and decides whether it may be taken over; throws, naming the reason, when not. */
export async function planAdoption(listing: NotebookListing, inputs: NotebookInputs, digestKey: string, zone: number | undefined): Promise<Adoption> {
  const uuid = String(inputs.adoptId);
  const namespace = String(inputs.namespace);
  const notebook = await listing.locate(namespace, uuid, undefined, 0);
  if (!notebook) {
    throw new AicpError(
      "AICP_NOT_FOUND",
      `adoptId ${uuid}: namespace ${namespace} holds no notebook with this uuid (getNotebooks lists them); nothing was changed.`,
    );
  }
  const mark = notebookMarkOf(notebook.envs);
  if (mark !== undefined && mark !== inputs.ownerMark) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: notebook ${notebook.name ?? uuid} was made by another Pulumi resource (it carries that resource's mark) and is managed there; ` +
        `nothing was changed.`,
    );
  }
  if (!inputs.autoNamed && notebook.name && inputs.name !== notebook.name) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: the notebook is named ${JSON.stringify(notebook.name)} and a notebook cannot be renamed; set name to that, or leave name out; ` +
        `nothing was changed.`,
    );
  }
  const adopted: NotebookInputs = { ...inputs, name: notebook.name ?? inputs.name };
  const { updates, replaces } = diffNotebook(outputs(adopted, notebook), adopted, digestKey, zone);
  if (replaces.length > 0) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: the notebook differs from the program in ${replaces.join(", ")}, which cannot change in place; ` +
        "taking it over would replace it and lose the work in it. Make the program match it, then run `pulumi up`; nothing was changed.",
    );
  }
  return { notebook, inputs: adopted, changes: updates };
}

/** The preview's words for an adoption. */
export function describeAdoption(logicalName: string, plan: Adoption): string {
  const what = plan.changes.length > 0 ? `and change ${plan.changes.join(", ")} in place to match the program` : "with no change (it matches the program)";
  return (
    `Notebook ${logicalName} will take over notebook ${plan.notebook.uuid} (${plan.notebook.name ?? "unnamed"}, ` +
    `${plan.notebook.status ?? "status unknown"}) ${what}.`
  );
}

/** The notebook as the platform last listed it, when `error` ended a wait or a start on a failure. */
export function lastSeen(error: unknown): wire.Notebook | undefined {
  return error instanceof NotebookFailed || error instanceof StartRefused ? error.notebook : undefined;
}

/** The uuid an earlier update resolved a provisional id to, recorded in the outputs. */
export function resolvedUuid(props: Partial<NotebookOutputs>): string | undefined {
  return typeof props.uuid === "string" && props.uuid !== "" ? props.uuid : undefined;
}

/** The error of an operation on a notebook whose create is still unconfirmed. */
export function notebookUnconfirmed(props: Partial<NotebookOutputs>, until: string): AicpError {
  return stillUnconfirmed("notebook", `namespace ${String(props.namespace)}`, props, until);
}

/** The error of an operation on a notebook whose unconfirmed create's window has passed without it. */
export function notebookPastWindow(id: string, props: Partial<NotebookOutputs>, until: string): AicpError {
  return pastWindow("notebook", `namespace ${String(props.namespace)}`, id, props, until);
}

/** A notebook created (or adopted) but not ready: the engine records it with this id. */
export function partlyCreatedNotebook(error: unknown, id: string, properties: Record<string, unknown>): Error {
  return partlyCreated("notebook", error, id, properties);
}

/**
 * How old the shared listing may be for the reads of a refresh: the engine
 * sends them over several seconds, and a refresh is one point in time. A
 * notebook the snapshot does not show is still looked up directly.
 */
export const refreshAgeMs = 5000;

/**
 * An earlier run recorded `createdAt` with the platform's zone; the platform
 * still sends the same bare value, so the state tells this process the zone.
 */
export function learnZoneFromState(recorded: unknown, live: unknown): void {
  if (typeof recorded !== "string" || typeof live !== "string" || hasZone(live)) return;
  const zone = zoneOf(recorded);
  if (zone !== undefined && withZone(live, zone) === recorded) currentClient().timeZone.learn(zone);
}

/** The configured zone of bare date-times; diff runs without a client, so nothing learned is known there. */
export function configuredZone(): number | undefined {
  const zone = currentSettings().platformTimeZone;
  return zone === undefined ? undefined : parseZone(zone);
}
