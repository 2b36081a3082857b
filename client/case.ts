/**
 * The one conversion between the wire's snake_case and the SDK's camelCase,
 * guided by the zod wire schema: keys of object schemas are converted, keys of
 * free-form maps (`z.record`, such as Kubernetes labels) are kept as they are.
 * Keys the schema does not know are converted too; their values are left alone.
 */
import type { z } from "zod";

export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

/** Type-level twin of snakeToCamel, applied deeply. */
export type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<SnakeToCamel<Tail>>}` : S;
export type Camelized<T> =
  T extends ReadonlyArray<infer E> ? Camelized<E>[] : T extends object ? { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: Camelized<T[K]> } : T;

type Direction = "toCamel" | "toSnake";

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
}

function defOf(schema: z.ZodType | undefined): Def | undefined {
  return (schema as unknown as { _zod?: { def: Def } } | undefined)?._zod?.def;
}

/** Strips wrappers that do not change the shape of a value. */
function unwrap(schema: z.ZodType | undefined, direction: Direction): z.ZodType | undefined {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (!def) return current;
    if (def.innerType && ["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === "pipe") {
      // Values coming from the wire have been through the pipe; values going to it have not.
      current = direction === "toCamel" ? def.out : def.in;
      if (defOf(current)?.type === "transform") current = def.in;
    } else {
      return current;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function convert(value: unknown, schema: z.ZodType | undefined, direction: Direction): unknown {
  const def = defOf(unwrap(schema, direction));
  if (Array.isArray(value)) {
    return value.map((item) => convert(item, def?.type === "array" ? def.element : undefined, direction));
  }
  if (!isPlainObject(value)) return value;
  if (def?.type === "record") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, def.valueType, direction)]));
  }
  if (def?.type === "union") {
    const objectOption = def.options?.find((o) => defOf(unwrap(o, direction))?.type === "object");
    return convert(value, objectOption, direction);
  }
  if (def?.type !== "object") {
    // Unknown structure: leave it exactly as it came.
    return value;
  }
  const shape = def.shape ?? {};
  const renamed: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const wireKey = direction === "toCamel" ? key : camelToSnake(key);
    const targetKey = direction === "toCamel" ? snakeToCamel(key) : wireKey;
    // A key the schema knows keeps its exact wire spelling (e.g. `resultType`).
    const known = key in shape ? key : wireKey in shape ? wireKey : undefined;
    renamed[known !== undefined && direction === "toSnake" ? known : targetKey] = known !== undefined ? convert(v, shape[known], direction) : v;
  }
  return renamed;
}

/** Converts a value read from the wire to camelCase, following `schema`. */
export function toCamel<T>(schema: z.ZodType, value: T): Camelized<T> {
  return convert(value, schema, "toCamel") as Camelized<T>;
}

/** Converts a camelCase value to the wire's snake_case, following `schema`. */
export function toSnake(schema: z.ZodType, value: unknown): unknown {
  return convert(value, schema, "toSnake");
}
