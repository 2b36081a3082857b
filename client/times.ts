/**
 * Date-times the platform writes without a zone. The spec says the create
 * response carries them bare; the docs' samples end in `Z`; some public
 * tooling builds times in China time (platform-api B5). The zone of a bare
 * value is therefore configured (`aicp:platformTimeZone`) or learned:
 * - from a create answer, whose `created_at` the platform wrote at a moment
 *   the client knows to within the request's round trip;
 * - from the state, where an earlier run recorded a value with its zone.
 * Until then a bare value is read as UTC, the zone of the docs' samples.
 */

const minute = 60_000;
/** Offsets are whole quarter hours, at most 14 h either side (every zone in use). */
const quarterHour = 15 * minute;
const maxOffset = 14 * 60 * minute;

const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i;
const shape = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i;

/** Minutes east of UTC for `UTC`, `Z`, `+08:00`, `+0800`, `+8` or `UTC+8`; undefined when not a zone. */
export function parseZone(text: string): number | undefined {
  const t = text.trim().toUpperCase();
  if (t === "UTC" || t === "Z" || t === "GMT") return 0;
  const m = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(t);
  if (!m) return undefined;
  const minutes = (Number(m[2]) * 60 + Number(m[3] ?? 0)) * (m[1] === "-" ? -1 : 1);
  return Math.abs(minutes) * minute <= maxOffset && Number(m[3] ?? 0) < 60 ? minutes : undefined;
}

/** `Z` for UTC, else `+HH:MM`. */
export function formatZone(offsetMinutes: number): string {
  if (offsetMinutes === 0) return "Z";
  const abs = Math.abs(offsetMinutes);
  return `${offsetMinutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** True when the value names its zone. */
export function hasZone(value: string): boolean {
  return zoned.test(value.trim());
}

/** The zone a zoned value names, in minutes east of UTC. */
export function zoneOf(value: string): number | undefined {
  const m = shape.exec(value.trim());
  return m?.[3] ? parseZone(m[3]) : undefined;
}

/** The instant of a date-time, reading a bare value in `bareOffsetMinutes`; NaN when not a date-time. */
export function instantOf(value: string, bareOffsetMinutes = 0): number {
  const m = shape.exec(value.trim());
  if (!m) return NaN;
  const zone = m[3] ? parseZone(m[3]) : bareOffsetMinutes;
  if (zone === undefined) return NaN;
  const time = m[2]!.length === 5 ? `${m[2]}:00` : m[2];
  return Date.parse(`${m[1]}T${time}Z`) - zone * minute;
}

/**
 * A bare value written out with its zone (`2030-01-02T02:00:00+08:00`), so a
 * later run, or another process, reads the same instant. Zoned values and
 * values that are not date-times are returned as they are.
 */
export function withZone(value: string, offsetMinutes: number): string {
  const m = shape.exec(value.trim());
  if (!m || m[3]) return value;
  return `${m[1]}T${m[2]}${formatZone(offsetMinutes)}`;
}

/** Now, as the platform's date-time form without fraction. */
export function nowOnTheWire(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The platform's zone, from a bare value it wrote at an instant known to lie
 * between `sentAt` and `answeredAt`: the bare value minus that instant, when it
 * is a whole quarter hour within that window and `skewMs` of clock skew.
 */
export function zoneFromEcho(bare: string, sentAt: number, answeredAt: number, skewMs = 2 * minute): number | undefined {
  if (hasZone(bare)) return undefined;
  const asUtc = instantOf(bare, 0);
  if (Number.isNaN(asUtc)) return undefined;
  const middle = (sentAt + answeredAt) / 2;
  const offset = Math.round((asUtc - middle) / quarterHour) * quarterHour;
  const slack = (answeredAt - sentAt) / 2 + skewMs;
  if (Math.abs(offset) > maxOffset || Math.abs(asUtc - offset - middle) > slack) return undefined;
  return offset / minute;
}

/**
 * The zone of this process's platform: configured, else learned, else unknown
 * (bare values then read as UTC).
 */
export class PlatformTimeZone {
  private learned: number | undefined;

  constructor(private readonly configured?: number) {}

  /** Minutes east of UTC, when configured or learned. */
  get offset(): number | undefined {
    return this.configured ?? this.learned;
  }

  /** Records what an answer showed; a configured zone, or one learned before, stands. */
  learn(offsetMinutes: number | undefined): void {
    this.learned ??= offsetMinutes;
  }

  /** A platform value with its zone written out when the zone is known. */
  normalise<T>(value: T): T {
    const offset = this.offset;
    return typeof value === "string" && offset !== undefined ? (withZone(value, offset) as T) : value;
  }
}
