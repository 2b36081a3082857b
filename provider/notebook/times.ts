/** The notebook's two times (stop and auto-delete), as check and diff compare them. */
import { instantOf, zoneOf } from "../../client/times";
import { sameValue } from "../inputs";

/** The inputs that are times. */
export const timeKeys = new Set<string>(["stopTime", "autoDeleteTime"]);

/** Times the platform can clear in place (set_stop_time and set_delete_time with an empty time). */
export const clearableKeys = ["stopTime", "autoDeleteTime"] as const;

/**
 * Compares a recorded date-time with a wanted one as instants. A bare value is
 * read in the platform's zone, as the platform reads it: the zone the recorded
 * value names (it was written out when learned, see client/times.ts), else
 * the configured or learned one, else UTC.
 */
export function sameInstant(recorded: unknown, wanted: unknown, platformZone?: number): boolean {
  if (typeof recorded !== "string" || typeof wanted !== "string") return sameValue(recorded, wanted);
  if (recorded === wanted) return true;
  const zone = zoneOf(recorded) ?? platformZone ?? 0;
  const [a, b] = [instantOf(recorded, zone), instantOf(wanted, zone)];
  // To the second: a platform may drop the fraction the program wrote.
  return Number.isNaN(a) || Number.isNaN(b) ? false : Math.floor(a / 1000) === Math.floor(b / 1000);
}
