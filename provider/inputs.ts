/**
 * Shared pieces of the resource lifecycles: validating camelCase inputs with a
 * wire schema (failures reported against camelCase property paths), comparing
 * old and new inputs, and auto-naming.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { snakeToCamel, toSnake } from "../client/case";

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
  const given = toSnake(schema, camelInputs);
  const result = schema.safeParse(given);
  if (result.success) return { wire: result.data, failures: [] };
  return {
    failures: result.error.issues.flatMap((issue) => {
      const at = camelPath(issue.path);
      if (issue.code === "unrecognized_keys") {
        return issue.keys.map((key) => {
          const property = at ? `${at}.${snakeToCamel(key)}` : snakeToCamel(key);
          return { property, reason: `${property} is not a known property` };
        });
      }
      const message = valueAt(given, issue.path) === undefined && issue.code !== "custom" ? missing(issue.message) : programWords(issue.message);
      return [{ property: at || "(inputs)", reason: `${at || "inputs"} ${message}` }];
    }),
  };
}

/** The value at `path` in `value`, undefined where any step is absent. */
function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  return path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/**
 * A rule's message for a value the program left out: "missing", and what to
 * set (zod says "Invalid option: expected one of …", or "expected string,
 * received undefined", which read as a wrong value).
 */
function missing(message: string): string {
  const choices = /expected one of (.+)$/.exec(message)?.[1];
  if (choices) return `is missing: set it to one of ${choices}`;
  const kind = /expected (\w+), received undefined/.exec(message)?.[1];
  return kind ? `is missing: set it to ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}` : `is missing: ${programWords(message)}`;
}

/**
 * A rule's message in the program's words: the wire's snake_case names of
 * properties camel-cased, but a quoted value (an enum's `"code_server"`) kept
 * as the program must write it.
 */
function programWords(message: string): string {
  return message
    .split(/("[^"]*")/)
    .map((part) => (part.startsWith('"') ? part : part.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (word) => snakeToCamel(word))))
    .join("");
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
export function changedKeys(olds: object, news: object, keys: readonly string[]): string[] {
  return keys.filter((k) => !sameValue(Reflect.get(olds, k), Reflect.get(news, k)));
}

/**
 * The name to use: the user's; else the auto-name recorded before (kept across
 * updates and renames by alias); else `<logical name>-<suffix>`, where the SDK
 * derives the suffix from project, stack, kind and resource name. A name that
 * is stable across runs and unique to this resource lets a create interrupted
 * mid-flight find its notebook on the next run instead of making a second one.
 */
export function resolveName(
  news: { name?: unknown; logicalName?: unknown; autoNameSuffix?: unknown },
  olds: { name?: unknown; autoNamed?: unknown },
): { name: string; autoNamed: boolean } {
  if (typeof news.name === "string" && news.name !== "") return { name: news.name, autoNamed: false };
  if (olds.autoNamed === true && typeof olds.name === "string") return { name: olds.name, autoNamed: true };
  // A suffix derived from a parent's URN is not known during a first preview.
  if (news.autoNameSuffix === unknownValue) return { name: unknownValue, autoNamed: true };
  const suffix = typeof news.autoNameSuffix === "string" ? news.autoNameSuffix : randomBytes(4).toString("hex").slice(0, 7);
  return { name: `${String(news.logicalName ?? "aicp")}-${suffix}`, autoNamed: true };
}

/**
 * A failure of `name` where the provider derived the name (resolveName): it
 * names what the program can change, the resource name or `name`, since the
 * program never wrote the name the rule refused.
 */
export function ofDerivedName(
  failure: CheckFailure,
  naming: { name?: unknown; autoNamed?: unknown; autoNameSuffix?: unknown },
  logicalName: unknown,
): CheckFailure {
  // Only a name derived now from the resource name: one kept from the state (a rename by alias) would not change with it.
  const { name, autoNamed, autoNameSuffix } = naming;
  if (failure.property !== "name" || autoNamed !== true || typeof logicalName !== "string" || typeof autoNameSuffix !== "string") return failure;
  if (name !== `${logicalName}-${autoNameSuffix}`) return failure;
  const suffix = autoNameSuffix.length + 1;
  return {
    property: "name",
    reason:
      `${failure.reason}: the name was derived from the resource name '${logicalName}' and a ${suffix}-character suffix (${name.length} ` +
      "characters in all); shorten the resource name, or set `name`",
  };
}

/**
 * The resource's mark (see ownership.ts): the one recorded when the object was
 * created, so renames and aliases keep it; else the one the SDK derived.
 */
export function resolveMark(news: { ownerMark?: unknown }, olds: { ownerMark?: unknown }): string | undefined {
  if (typeof olds.ownerMark === "string" && olds.ownerMark !== "") return olds.ownerMark;
  return typeof news.ownerMark === "string" && news.ownerMark !== "" ? news.ownerMark : undefined;
}

/** The value the engine sends in place of an input that is not known yet (during preview). */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Property paths (camelCase, as camelPath renders them) whose value is not known yet. */
export function unknownPaths(value: unknown, path = ""): string[] {
  if (value === unknownValue) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, path ? `${path}.${k}` : k));
  }
  return [];
}

/**
 * Drops failures about values that are not known yet: they are checked again
 * once known. A failure on a parent of an unknown (e.g. a cross-field rule) is
 * dropped too, since it may depend on it.
 */
export function withoutUnknowns(failures: CheckFailure[], inputs: unknown): CheckFailure[] {
  const unknown = unknownPaths(inputs);
  if (unknown.length === 0) return failures;
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
  return failures.filter((f) => !unknown.some((u) => related(f.property, u)));
}

/**
 * Drops undefined members, deeply: the engine's protobuf Struct cannot carry
 * them and rejects the whole result ("Unexpected struct type").
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : compact(v))) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, compact(v)]),
  ) as T;
}
