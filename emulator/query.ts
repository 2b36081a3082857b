/**
 * Query strings: parsing into pairs (kept in wire order for the signature) and
 * turning them into the typed object an operation's query schema expects.
 *
 * What public clients send (platform-api B4): `/` unencoded in values, arrays
 * as repeated keys, Python booleans (`True`/`False`), and, from the operator's
 * SDK, values joined without encoding and then re-quoted by `requests`. Names
 * an operation does not model are left out and reported, not refused: the
 * platform ignores them.
 */
import type { z } from "zod";
import { ApiError } from "./errors";

/** One query parameter as received. */
export interface QueryPair {
  /** Name, decoded. */
  key: string;
  /** Value decoded as a form does: `+` is a space. */
  value: string;
  /** Value with only the percent-escapes decoded (`+` kept): what a raw-join signer saw. */
  literal: string;
}

/** The pairs of a raw query string, in wire order. */
export function parseQuery(raw: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    pairs.push({ key: decode(name.replace(/\+/g, " ")), value: decode(value.replace(/\+/g, " ")), literal: decode(value) });
  }
  return pairs;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ApiError(400, 400, `invalid query string: malformed percent-encoding in '${text}'`);
  }
}

/** Groups pairs by name: one value stays a string, repeated names become arrays. */
export function groupPairs(pairs: readonly QueryPair[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { key, value } of pairs) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

type Scalar = "number" | "boolean" | "string";
type Kind = Scalar | `array-${Scalar}` | "other";

/** Reads the zod 4 definition tree down to the value type of one field. */
function kindOf(schema: unknown, inArray = false): Kind {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return "other";
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return kindOf(def.innerType, inArray);
    case "pipe":
      return kindOf(def.in, inArray);
    case "array": {
      if (inArray) return "other";
      const inner = kindOf(def.element, true);
      return inner === "number" || inner === "boolean" || inner === "string" ? `array-${inner}` : "other";
    }
    case "number":
    case "int":
      return "number";
    case "boolean":
      return "boolean";
    case "string":
    case "enum":
    case "literal":
      return "string";
    default:
      return "other";
  }
}

/** Python writes booleans as True/False (platform-api B4); JSON-minded clients as true/false. */
const BOOLEANS: Record<string, boolean> = { true: true, True: true, false: false, False: false };

function coerceScalar(value: string, kind: Scalar): unknown {
  if (kind === "number" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (kind === "boolean" && value in BOOLEANS) return BOOLEANS[value];
  return value;
}

/**
 * Builds the object to validate against `schema` (a zod object) from the
 * grouped query: array fields always get an array, scalar fields a single value
 * (a repeated scalar stays an array so validation reports it). Names the schema
 * does not model are returned in `ignored` instead.
 */
export function coerceQuery(schema: z.ZodObject, grouped: Record<string, string | string[]>): { value: Record<string, unknown>; ignored: string[] } {
  const shape = schema.shape as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [name, raw] of Object.entries(grouped)) {
    if (!(name in shape)) {
      ignored.push(name);
      continue;
    }
    const kind = kindOf(shape[name]);
    const values = Array.isArray(raw) ? raw : [raw];
    if (kind.startsWith("array-")) {
      const inner = kind.slice(6) as Scalar;
      value[name] = values.map((v) => coerceScalar(v, inner));
    } else if (kind === "number" || kind === "boolean" || kind === "string") {
      const coerced = values.map((v) => coerceScalar(v, kind));
      value[name] = coerced.length === 1 ? coerced[0] : coerced;
    } else {
      value[name] = raw;
    }
  }
  return { value, ignored };
}
