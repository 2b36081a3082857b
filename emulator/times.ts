/**
 * Date-times. Records keep them in one form whatever the dialect: UTC without
 * a zone suffix, seconds precision (the form state files have always used).
 * Answers write them without suffix in the dialect's `bareTimeZone`, and a
 * request value without a zone is read in that zone (platform-api B5 "Times").
 */
import type { Dialect } from "./types";

type BareZone = Dialect["bareTimeZone"];

const OFFSET_MS: Record<BareZone, number> = { UTC: 0, "+08:00": 8 * 3_600_000 };

const ZONED = /(Z|[+-]\d{2}:?\d{2})$/i;

/** `ms` written as the platform writes date-times: "YYYY-MM-DDTHH:MM:SS" in `zone`, no suffix. */
export function formatBare(ms: number, zone: BareZone): string {
  return new Date(ms + OFFSET_MS[zone]).toISOString().slice(0, 19);
}

/**
 * Reads a date-time: ISO 8601 or "YYYY-MM-DD HH:MM:SS"; one with a zone is
 * taken as given, one without is read in `zone`. NaN when it is not a date-time.
 */
export function parseDateTime(value: string, zone: BareZone): number {
  const iso = value.trim().replace(" ", "T");
  if (ZONED.test(iso)) return Date.parse(iso.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  const ms = Date.parse(iso + "Z");
  return Number.isNaN(ms) ? ms : ms - OFFSET_MS[zone];
}

/** The stored form of an instant. */
export function storedTime(ms: number): string {
  return formatBare(ms, "UTC");
}

/** The instant of a stored value (NaN when it is not a date-time). */
export function storedMs(stored: string): number {
  return parseDateTime(stored, "UTC");
}

/** A request date-time, read in the dialect's zone, in the stored form; null (or empty: cleared) stays null. */
export function requestToStored(value: string | null | undefined, zone: BareZone): string | null {
  if (value === undefined || value === null || value === "") return null;
  const ms = parseDateTime(value, zone);
  return Number.isNaN(ms) ? value : storedTime(ms);
}

/** A stored date-time as an answer writes it in the dialect's zone; null stays null. */
export function storedToWire(stored: string | null, zone: BareZone): string | null {
  if (stored === null) return null;
  const ms = storedMs(stored);
  return Number.isNaN(ms) ? stored : formatBare(ms, zone);
}
