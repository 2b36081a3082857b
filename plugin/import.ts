/**
 * What `pulumi import` records as an imported object's inputs, from which the
 * engine writes its program code: the fields a program sets, as the schema
 * types them.
 */
import { kindDescriptions, type DescribedKind as Kind, type KindDescription } from "../client/wire";
import { packageName, schemaText } from "./schema";

/** What an imported object's program would set: the kind's program fields the platform reported (the code `pulumi import` writes). */
export function programInputsOf(kind: Kind, read: Record<string, unknown>): Record<string, unknown> {
  const described = kindDescriptions[kind] as KindDescription;
  const schema = JSON.parse(schemaText()) as Schema;
  const inputs = schema.resources[`${packageName}:index:${kind}`]!.inputProperties;
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(inputs)) {
    if (described.readAtCreateOnly.includes(field) || (field in described.defaults && read[field] === described.defaults[field])) continue;
    const value = settable(read[field], spec, schema);
    if (value !== undefined) out[field] = value;
  }
  if (Array.isArray(out.envs)) out.envs = out.envs.map((env: { name?: unknown; value?: unknown }) => fromEnvironment(String(read.name ?? ""), env));
  return out;
}

/**
 * An env as imported code gives it: the value read where pulumi runs from a
 * variable named for the notebook and the env (`valueFromEnv`), never the
 * value itself. The engine writes every input into the code, a secret's value
 * too (pkg/importer/hcl2.go generateValue), and env values often hold tokens.
 * Not the env's own name: `TZ` or `PATH` is set where pulumi runs, to another
 * value, and a changed env replaces the notebook.
 */
function fromEnvironment(notebook: string, env: { name?: unknown; value?: unknown }): Record<string, unknown> {
  const { value: _never, ...rest } = env;
  return { ...rest, valueFromEnv: importedEnvVariable(notebook, String(env.name ?? "")) };
}

/** `AICP_<NOTEBOOK>_<ENV>`, upper case, every other character than a letter or a digit as `_`: e.g. AICP_CONSOLE_NOTEBOOK_HF_TOKEN. */
export function importedEnvVariable(notebook: string, env: string): string {
  const word = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, "_");
  return `AICP_${word(notebook)}_${word(env)}`;
}

/** Pulumi schema, as far as import reads it: input properties and object types. */
interface Schema {
  resources: Record<string, { inputProperties: Record<string, PropertySpec> }>;
  types: Record<string, { properties: Record<string, PropertySpec> }>;
}
interface PropertySpec {
  $ref?: string;
  items?: PropertySpec;
}

/**
 * `value` as a program could write it under `spec`: object fields the schema
 * does not declare (ids and details the platform adds) left out, and nothing
 * for what holds no value ("" and [] are how the platform says none).
 */
function settable(value: unknown, spec: PropertySpec, schema: Schema): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => settable(v, spec.items ?? {}, schema)).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  const type = spec.$ref?.startsWith("#/types/") ? schema.types[spec.$ref.slice("#/types/".length)] : undefined;
  if (type && typeof value === "object") {
    const fields = Object.entries(type.properties).flatMap(([key, inner]) => {
      const v = settable((value as Record<string, unknown>)[key], inner, schema);
      return v === undefined ? [] : [[key, v] as const];
    });
    return fields.length === 0 ? undefined : Object.fromEntries(fields);
  }
  return value;
}
