/**
 * Shared pieces of the resource lifecycles: validating camelCase inputs with a
 * wire schema (failures reported against camelCase property paths), comparing
 * old and new inputs, and auto-naming.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { snakeToCamel, toSnake } from "./client/case";

export interface CheckFailure {
  property: string;
  reason: string;
}

/** Renders a wire path as the camelCase property path a user wrote. */
export function camelPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === "number") return `${acc}[${key}]`;
    const name = snakeToCamel(String(key));
    return acc ? `${acc}.${name}` : name;
  }, "");
}

/** Converts camelCase inputs to the wire and validates them; failures use camelCase paths. */
export function validateAgainst<S extends z.ZodType>(schema: S, camelInputs: unknown): { wire?: z.output<S>; failures: CheckFailure[] } {
  const result = schema.safeParse(toSnake(schema, camelInputs));
  if (result.success) return { wire: result.data, failures: [] };
  return {
    failures: result.error.issues.map((issue) => ({ property: camelPath(issue.path) || "(inputs)", reason: `${camelPath(issue.path) || "inputs"} ${issue.message}` })),
  };
}

/** Deep equality of plain JSON values, ignoring undefined object members. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Names of `keys` whose values differ between olds and news. */
export function changedKeys(olds: Record<string, unknown>, news: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.filter((k) => !sameValue(olds[k], news[k]));
}

/** `<logical name>-<7 random hex>`, as Pulumi providers auto-name. */
export function autoName(logicalName: string): string {
  return `${logicalName}-${randomBytes(4).toString("hex").slice(0, 7)}`;
}

/**
 * The name to use: the user's, else the previous auto-name when the logical
 * name is unchanged (so a name is generated once), else a new one.
 */
export function resolveName(news: { name?: unknown; logicalName?: unknown }, olds: { name?: unknown; logicalName?: unknown; autoNamed?: unknown }): { name: string; autoNamed: boolean } {
  if (typeof news.name === "string" && news.name !== "") return { name: news.name, autoNamed: false };
  if (olds.autoNamed === true && typeof olds.name === "string" && olds.logicalName === news.logicalName) return { name: olds.name, autoNamed: true };
  return { name: autoName(String(news.logicalName ?? "aicp")), autoNamed: true };
}

/**
 * Drops undefined members, deeply: the engine's protobuf Struct cannot carry
 * them and rejects the whole result ("Unexpected struct type").
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : compact(v))) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, compact(v)])) as T;
}
