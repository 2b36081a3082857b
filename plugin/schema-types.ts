/**
 * Pulumi schema types from zod rules (plugin/schema-build.ts builds the
 * package's schema with them): a rule becomes a property through zod's JSON
 * Schema; an object type takes the name its zod schema's `title` gives it,
 * else its owner's name and its own; a program's closed set of strings
 * becomes an enum type.
 */
import { z } from "zod";
import { camelToSnake, snakeToCamel } from "../client/case";
import type { DeclaredField } from "../client/wire/kind";
import * as wire from "../client/wire";
import { kindDescriptions } from "../client/wire";

export interface PropertySpec {
  type?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  $ref?: string;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  default?: unknown;
}
export interface ObjectSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}
/** A closed set of strings a program may give: every language's SDK types it (Python and Go enums, YAML checks). */
export interface EnumSpec {
  type: "string";
  description: string;
  enum: Array<{ name: string; value: string }>;
}

export const packageName = "aicp";

/** A node of zod's JSON Schema (the subset its output uses here). */
export interface JsonNode {
  type?: string | string[];
  anyOf?: JsonNode[];
  oneOf?: JsonNode[];
  items?: JsonNode;
  properties?: Record<string, JsonNode>;
  required?: string[];
  const?: unknown;
  enum?: unknown[];
  title?: string;
  description?: string;
}

export const anyValue: PropertySpec = { $ref: "pulumi.json#/Any" };

/** The JSON Schema of a rule, as the program gives it (`input`) or the platform answers it (`output`). */
export function jsonOf(schema: z.ZodType, io: "input" | "output"): JsonNode {
  return z.toJSONSchema(schema, { unrepresentable: "any", io }) as JsonNode;
}

/**
 * The alternatives a value may take, without null (absent, to Pulumi) and
 * without the untyped member a transform leaves (`z.number().transform(String)`
 * is a string once read, which its sibling already says).
 */
export function alternatives(node: JsonNode): JsonNode[] {
  const nested = node.anyOf ?? node.oneOf;
  const all = nested ? nested.flatMap(alternatives) : Array.isArray(node.type) ? node.type.map((type) => ({ ...node, type })) : [node];
  const typed = all.filter((n) => n.type !== "null" && (n.type !== undefined || n.enum !== undefined || n.const !== undefined));
  return typed.length > 0 ? typed : all.filter((n) => n.type !== "null" && Object.keys(n).length > 0);
}

/** A scalar's schema type; a number whose every allowed value is whole is an integer (a 0 | 1 flag). */
export function scalarOf(node: JsonNode): string | undefined {
  const values = node.enum ?? (node.const !== undefined ? [node.const] : undefined);
  if (node.type === "number" && values?.every((v) => Number.isInteger(v))) return "integer";
  if (node.type === "boolean" || node.type === "string" || node.type === "integer" || node.type === "number") return node.type;
  if (values?.every((v) => typeof v === "string")) return "string";
  return undefined;
}

export class SchemaTypes {
  readonly types: Record<string, ObjectSpec | EnumSpec> = {};

  /**
   * The schema property for a JSON Schema node; `hint` names a type made
   * from it. A program's closed set of strings becomes an enum type; the
   * platform's answers never do (it may answer a value no document lists).
   */
  property(node: JsonNode, hint: string, io: "input" | "output" = "output", listItem = false): PropertySpec {
    const members = alternatives(node);
    if (members.length === 0) return anyValue;
    const scalars = members.map(scalarOf);
    if (scalars.every((t) => t !== undefined)) {
      const kinds = new Set(scalars);
      const values = members.flatMap((m) => m.enum ?? (m.const !== undefined ? [m.const] : [undefined]));
      if (io === "input" && scalars[0] === "string" && kinds.size === 1 && values.every((v) => typeof v === "string")) {
        // An item of a list is one of its values: ResourceGroupPodType, not ...PodTypes.
        return { $ref: `#/types/${packageName}:index:${this.enumType(values as string[], listItem ? hint.replace(/s$/, "") : hint)}` };
      }
      if (kinds.size === 1) return { type: scalars[0] };
      if ([...kinds].every((t) => t === "integer" || t === "number")) return { type: "number" };
      return anyValue;
    }
    if (members.length > 1) return anyValue;
    const only = members[0]!;
    if (only.type === "array") return { type: "array", items: only.items ? this.property(only.items, hint, io, true) : anyValue };
    if (only.type === "object" && only.properties && Object.keys(only.properties).length > 0) {
      return { $ref: `#/types/${packageName}:index:${this.objectType(only, only.title ?? hint, hint, io)}` };
    }
    return anyValue;
  }

  /** `spec` with an enum (or a list of one) as plain strings. */
  withoutEnum(spec: PropertySpec): PropertySpec {
    const isEnum = (s: PropertySpec | undefined) => s?.$ref !== undefined && "enum" in (this.types[s.$ref.slice("#/types/".length)] ?? {});
    if (isEnum(spec)) {
      const { $ref: _enum, ...rest } = spec;
      return { ...rest, type: "string" };
    }
    if (spec.type === "array" && isEnum(spec.items)) return { ...spec, items: { type: "string" } };
    return spec;
  }

  /** Registers the enum of `values` under `name`; the same set of values met again reuses the first one's type. */
  private enumType(values: readonly string[], name: string): string {
    const key = JSON.stringify([...new Set(values)].sort());
    const same = Object.entries(this.types).find(([, t]) => "enum" in t && JSON.stringify(t.enum.map((e) => e.value).sort()) === key);
    if (same) return same[0].split(":").pop()!;
    const pascal = (value: string) => value.replace(/(^|[_\-\s]+)([a-z0-9])/gi, (_, _sep: string, c: string) => c.toUpperCase());
    this.types[`${packageName}:index:${name}`] = {
      type: "string",
      description: `One of ${[...new Set(values)].map((v) => `\`${v}\``).join(", ")}.`,
      enum: [...new Set(values)].map((value) => ({ name: pascal(value), value })),
    };
    return name;
  }

  /**
   * Registers an object type under `name`, or under `fallback` when `name`
   * already holds another shape (an input's type and the richer answer of a
   * function differ: a program must not be offered the answer's fields).
   */
  private objectType(node: JsonNode, name: string, fallback: string, io: "input" | "output"): string {
    const properties: Record<string, PropertySpec> = {};
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const field = snakeToCamel(key);
      const spec = this.property(child, `${name}${field[0]!.toUpperCase()}${field.slice(1)}`, io);
      // A nested field's document, where its rule has one, reaches every language's SDK and the reference pages.
      properties[field] = child.description ? { ...spec, description: child.description } : spec;
    }
    const required = (node.required ?? []).map(snakeToCamel);
    const existing = this.types[`${packageName}:index:${name}`];
    const sameShape = (t: ObjectSpec | EnumSpec) =>
      "properties" in t && JSON.stringify(Object.keys(t.properties).sort()) === JSON.stringify(Object.keys(properties).sort());
    const chosen = !existing || sameShape(existing) ? name : fallback;
    const token = `${packageName}:index:${chosen}`;
    const type = (this.types[token] ??= { type: "object", properties, required });
    for (const key of secretParts[chosen] ?? []) if ("properties" in type && type.properties[key]) type.properties[key]!.secret = true;
    return chosen;
  }

  /** Declared fields as schema properties, with their documents, and those a value must have. */
  fields(declared: Readonly<Record<string, DeclaredField>>, owner: string, io: "input" | "output") {
    const properties: Record<string, PropertySpec> = {};
    for (const [name, field] of Object.entries(declared)) {
      const spec = this.property(jsonOf(field.schema, io), `${owner}${name[0]!.toUpperCase()}${name.slice(1)}`, io);
      properties[name] = field.doc ? { ...spec, description: field.doc } : spec;
    }
    return { properties, required: Object.keys(declared).filter((name) => declared[name]!.required) };
  }
}

/**
 * Fields nested in a type that are secret wherever they appear, by the type's
 * title: the secret parts of a notebook's fields (client/wire/notebook.ts
 * notebookSecretParts), found in the rule of the field that holds them.
 */
function secretPartsByType(): Record<string, readonly string[]> {
  const inputs = kindDescriptions.Notebook.declaration.inputs;
  const platform: Record<string, z.ZodType> = wire.notebook.shape;
  return Object.fromEntries(
    Object.entries(wire.notebookSecretParts).map(([field, parts]) => {
      const rule = inputs[field]?.schema ?? platform[camelToSnake(field)]!;
      const node = alternatives(jsonOf(rule, "input"))[0];
      return [(node?.items ?? node)?.title ?? field, parts];
    }),
  );
}

const secretParts = secretPartsByType();
