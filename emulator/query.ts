/**
 * Query strings: parsing into pairs (kept for the signature) and turning them
 * into the typed object a wire query schema expects. Values are coerced per
 * field, guided by the schema, so "2" becomes 2 only where a number is wanted.
 */
import type { z } from "zod";
import { ApiError } from "./errors";

/** Decoded `[name, value]` pairs in wire order; `+` means a space, as in forms. */
export function parseQuery(raw: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    pairs.push([decode(name), decode(value)]);
  }
  return pairs;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new ApiError(400, 400, `invalid query string: malformed percent-encoding in '${text}'`);
  }
}

/** Groups pairs by name: one value stays a string, repeated names become arrays. */
export function groupPairs(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[name] = [prev, value];
  }
  return out;
}

type Kind = "number" | "boolean" | "string" | "array-number" | "array-boolean" | "array-string" | "other";

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
      return inner === "number" || inner === "boolean" || inner === "string" ? (`array-${inner}` as Kind) : "other";
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

function coerceScalar(value: string, kind: "number" | "boolean" | "string"): unknown {
  if (kind === "number" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (kind === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/**
 * Builds the object to validate against `schema` (a zod object): array fields
 * always get an array, scalar fields keep a single value (a repeated scalar
 * stays an array so validation reports it), and unknown names pass through for
 * the strict schema to reject.
 */
export function coerceQuery(schema: z.ZodObject, grouped: Record<string, string | string[]>): Record<string, unknown> {
  const shape = schema.shape as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(grouped)) {
    const kind = name in shape ? kindOf(shape[name]) : "other";
    const values = Array.isArray(value) ? value : [value];
    if (kind.startsWith("array-")) {
      const inner = kind.slice(6) as "number" | "boolean" | "string";
      out[name] = values.map((v) => coerceScalar(v, inner));
    } else if (kind === "number" || kind === "boolean" || kind === "string") {
      const coerced = values.map((v) => coerceScalar(v, kind));
      out[name] = coerced.length === 1 ? coerced[0] : coerced;
    } else {
      out[name] = value;
    }
  }
  return out;
}
