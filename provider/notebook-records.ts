/**
 * What the notebook's lifecycle (notebook.ts) records and reports beside its
 * results: the errors of a partly made notebook and of unconfirmed creates,
 * the uuid an earlier update resolved, and the zone of bare date-times read
 * back from the state.
 */
import type * as wire from "../client/wire";
import { AicpError } from "../client/errors";
import { hasZone, parseZone, withZone, zoneOf } from "../client/times";
import { currentClient, currentSettings } from "./context";
import { partlyCreated, pastWindow, stillUnconfirmed } from "./create-once";
import { NotebookFailed } from "./notebook-wait";
import { StartRefused } from "./notebook-settle";
import type { NotebookOutputs } from "./notebook-outputs";

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
