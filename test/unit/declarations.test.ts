/**
 * The plugin's schema is built from the descriptions (client/wire/index.ts,
 * plugin/functions.ts), the TypeScript SDK is written by hand or generated
 * beside them: these tests read the SDK's declarations with the compiler and
 * fail when a name, whether it is required, or a document differs, so the two
 * fronts cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { DeclaredField } from "../../client/wire/kind";
import { kindDescriptions } from "../../client/wire";
import { functions } from "../../plugin/functions";
import type * as sdk from "../../sdk";
import { declaredDoc, declaredMembers, sdkFileOf, type ValueKind } from "../support/declared-keys";

// The SDK's entry point exports a class named after each kind: a kind without one does not type-check.
const everyKindExported: keyof typeof kindDescriptions extends keyof typeof sdk ? true : never = true;
void everyKindExported;

const collapse = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Name, required and document of each declared field, as the SDK's members say them. */
function fromDeclaration(fields: Readonly<Record<string, DeclaredField>>) {
  return Object.entries(fields)
    .map(([name, field]) => ({ name, optional: !field.required, doc: collapse(field.doc) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The SDK's members, each document kept only where the declaration documents the field (a filter type shared with the wire carries none). */
function fromSdk(file: string, type: string, fields: Readonly<Record<string, DeclaredField>>) {
  return declaredMembers(resolve(file), type).map(({ kind: _kind, ...m }) => ({ ...m, doc: fields[m.name]?.doc === undefined ? "" : m.doc }));
}

interface SchemaProperty {
  type?: string;
  $ref?: string;
}
const schema = JSON.parse(readFileSync("schema.json", "utf8")) as {
  types: Record<string, { enum?: unknown[] }>;
  resources: Record<string, { inputProperties: Record<string, SchemaProperty> }>;
  functions: Record<string, { inputs: { properties: Record<string, SchemaProperty> }; outputs: { properties: Record<string, SchemaProperty> } }>;
};

/** The kind of value a schema property holds, in the SDK's terms. */
function kindInSchema(property: SchemaProperty): ValueKind {
  if (property.$ref === "pulumi.json#/Any") return "any";
  // An enum of the schema holds a string.
  if (property.$ref && schema.types[property.$ref.slice("#/types/".length)]?.enum) return "string";
  if (property.$ref) return "object";
  return property.type === "integer" ? "number" : (property.type as ValueKind);
}

/** Each member's kind of value in the SDK and in the schema, where they differ. */
function kindsDiffering(file: string, type: string, properties: Record<string, SchemaProperty>) {
  return declaredMembers(resolve(file), type)
    .filter((m) => properties[m.name] !== undefined && m.kind !== kindInSchema(properties[m.name]!))
    .map((m) => `${m.name}: ${m.kind} in the SDK, ${kindInSchema(properties[m.name]!)} in the schema`);
}

describe.each(Object.keys(kindDescriptions) as Array<keyof typeof kindDescriptions>)("the %s kind's declaration and the TypeScript SDK", (kind) => {
  const { declaration } = kindDescriptions[kind];

  it("declare the same arguments, equally required, with the same documents", () => {
    expect(fromSdk(sdkFileOf(kind), `${kind}Args`, declaration.inputs)).toEqual(fromDeclaration(declaration.inputs));
  });

  it("give each argument the same kind of value (the schema comes from the declaration's zod rules)", () => {
    expect(kindsDiffering(sdkFileOf(kind), `${kind}Args`, schema.resources[`aicp:index:${kind}`]!.inputProperties)).toEqual([]);
  });

  it("describe the resource in the same words", () => {
    expect(declaredDoc(resolve(sdkFileOf(kind)), kind)).toBe(collapse(declaration.doc));
  });
});

describe.each(Object.keys(functions) as Array<keyof typeof functions>)("%s: its declaration and the TypeScript SDK", (name) => {
  const { declaration } = functions[name];
  const file = "sdk/functions.generated.ts";
  const typeName = `${name[0]!.toUpperCase()}${name.slice(1)}`;

  it("declare the same arguments, equally required, with the same documents", () => {
    expect(fromSdk(file, `${typeName}Args`, declaration.args)).toEqual(fromDeclaration(declaration.args));
  });

  it("declare the same results", () => {
    expect(fromSdk(file, `${typeName}Result`, declaration.results)).toEqual(fromDeclaration(declaration.results));
  });

  it("give each argument and result the same kind of value", () => {
    const { inputs, outputs } = schema.functions[`aicp:index:${name}`]!;
    expect([...kindsDiffering(file, `${typeName}Args`, inputs.properties), ...kindsDiffering(file, `${typeName}Result`, outputs.properties)]).toEqual([]);
  });

  it("describe the function in the same words", () => {
    expect(declaredDoc(resolve(file), name)).toBe(collapse(declaration.doc));
  });
});
