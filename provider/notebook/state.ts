/**
 * Where a notebook is, against where the program wants it. Status is part of
 * the truth: a Failed notebook, or one stopped or started behind the
 * program's back, is drift that refresh records and `up` repairs. A stop at
 * the notebook's own stop time is what the program asked for, never drift.
 */
import * as wire from "../../client/wire";
import { instantOf } from "../../client/times";

export type DesiredState = "Running" | "Stopped";

/** Stopped, with a stop time that has passed: the platform stopped it as scheduled (or it was stopped after that time). */
export function stoppedOnSchedule(nb: Pick<wire.Notebook, "status" | "stop_time">, zone: number, now = Date.now()): boolean {
  if (nb.status !== "Stopped" || typeof nb.stop_time !== "string" || nb.stop_time === "") return false;
  const at = instantOf(nb.stop_time, zone);
  return !Number.isNaN(at) && at <= now;
}

/** Stopped by its own stop time at or after `since`: a schedule that came while the provider waited. */
export function stoppedOnScheduleSince(nb: Pick<wire.Notebook, "status" | "stop_time">, zone: number, since: number, now = Date.now()): boolean {
  return stoppedOnSchedule(nb, zone, now) && instantOf(String(nb.stop_time), zone) >= since - 1000;
}

/** Whether the notebook is in the state the program wants. */
export function inDesiredState(nb: Pick<wire.Notebook, "status" | "stop_time">, desired: DesiredState | "Failed", zone: number): boolean {
  return nb.status === desired || (desired === "Running" && stoppedOnSchedule(nb, zone));
}

/**
 * The desired state a refresh records: the platform's where the notebook has
 * settled elsewhere (Stopped, Running, or Failed, which no program asks for,
 * so the next preview names it), the program's while the notebook is on its
 * way (Pending, or a status the provider does not know) or stopped on schedule.
 */
export function observedDesiredState(nb: Pick<wire.Notebook, "status" | "stop_time">, recorded: DesiredState, zone: number): string {
  switch (nb.status) {
    case "Running":
    case "Failed":
      return nb.status;
    case "Stopped":
      return recorded === "Running" && stoppedOnSchedule(nb, zone) ? "Running" : "Stopped";
    default:
      return recorded;
  }
}

/** True for a status the provider does not know (Pending, Running, Stopped and Failed are known in any case). */
export function isUnknownStatus(status: string | null | undefined): boolean {
  return typeof status === "string" && !(wire.notebookStatuses as readonly string[]).includes(status);
}
