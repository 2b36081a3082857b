/**
 * Builds the provider's Pulumi package schema (schema.json) from the
 * descriptions: each kind's declaration (client/wire/index.ts: every field's
 * rule as a zod schema and its documentation; what replaces, what is secret
 * and the defaults), each function's (plugin/functions.ts), and the
 * configuration keys (client/config.ts). A rule becomes a schema type through
 * zod's JSON Schema; an object type takes the name its zod schema's `title`
 * gives it, else its owner's name and its own. Nothing here restates a field:
 * a field added to a description reaches the schema at the next
 * `npm run generate`, and test/unit/plugin-schema.test.ts fails until then.
 *
 *   node dist/plugin/schema-build.js            writes schema.json
 *   node dist/plugin/schema-build.js --check    exits 1 when schema.json is stale
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { camelToSnake, snakeToCamel } from "../client/case";
import { configKeys } from "../client/config";
import type { DeclaredField, KindDescription } from "../client/wire/kind";
import * as wire from "../client/wire";
import { kindDescriptions, type DescribedKind } from "../client/wire";
import { functions } from "./functions";

/** Pulumi schema property (the subset this package uses). */
interface PropertySpec {
  type?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  $ref?: string;
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  default?: unknown;
}
interface ObjectSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}
/** A closed set of strings a program may give: every language's SDK types it (Python and Go enums, YAML checks). */
interface EnumSpec {
  type: "string";
  description: string;
  enum: Array<{ name: string; value: string }>;
}

const packageName = "aicp";

/** The repository (or installed package) root: where package.json is. */
function root(): string {
  for (let dir = __dirname; ; dir = join(dir, "..")) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string };
      if (pkg.name === "pulumi-aicp") return dir;
    } catch {
      // not here: one level up
    }
    if (dir === join(dir, "..")) throw new Error("package.json of pulumi-aicp not found above " + __dirname);
  }
}

/** A node of zod's JSON Schema (the subset its output uses here). */
interface JsonNode {
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

const anyValue: PropertySpec = { $ref: "pulumi.json#/Any" };

/** The JSON Schema of a rule, as the program gives it (`input`) or the platform answers it (`output`). */
function jsonOf(schema: z.ZodType, io: "input" | "output"): JsonNode {
  return z.toJSONSchema(schema, { unrepresentable: "any", io }) as JsonNode;
}

/**
 * The alternatives a value may take, without null (absent, to Pulumi) and
 * without the untyped member a transform leaves (`z.number().transform(String)`
 * is a string once read, which its sibling already says).
 */
function alternatives(node: JsonNode): JsonNode[] {
  const nested = node.anyOf ?? node.oneOf;
  const all = nested ? nested.flatMap(alternatives) : Array.isArray(node.type) ? node.type.map((type) => ({ ...node, type })) : [node];
  const typed = all.filter((n) => n.type !== "null" && (n.type !== undefined || n.enum !== undefined || n.const !== undefined));
  return typed.length > 0 ? typed : all.filter((n) => n.type !== "null" && Object.keys(n).length > 0);
}

/** A scalar's schema type; a number whose every allowed value is whole is an integer (a 0 | 1 flag). */
function scalarOf(node: JsonNode): string | undefined {
  const values = node.enum ?? (node.const !== undefined ? [node.const] : undefined);
  if (node.type === "number" && values?.every((v) => Number.isInteger(v))) return "integer";
  if (node.type === "boolean" || node.type === "string" || node.type === "integer" || node.type === "number") return node.type;
  if (values?.every((v) => typeof v === "string")) return "string";
  return undefined;
}

class SchemaTypes {
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

/** The schema of a resource kind, from its declaration: inputs, outputs (an echoed input keeps the input's type), replacing, secret and defaults. */
function resource(types: SchemaTypes, kind: DescribedKind) {
  const described: KindDescription = kindDescriptions[kind];
  const { declaration } = described;
  const args = types.fields(declaration.inputs, kind, "input");
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [name, spec] of Object.entries(args.properties)) {
    inputProperties[name] = {
      ...spec,
      ...(described.replace.includes(name) ? { willReplaceOnChanges: true } : {}),
      ...(name in described.defaults ? { default: described.defaults[name] } : {}),
      // Secret on its way in too: the SDKs mark it before it reaches the engine (env values, registry credentials).
      ...(described.secretOutputs.includes(name) ? { secret: true } : {}),
    };
  }
  const properties: Record<string, PropertySpec> = {};
  for (const name of described.outputs) {
    const output = declaration.outputs[name];
    const echoed = args.properties[name];
    const spec = output?.schema ? types.property(jsonOf(output.schema, "output"), `${kind}${name[0]!.toUpperCase()}${name.slice(1)}`) : (echoed ?? anyValue);
    const description = output?.doc ?? echoed?.description;
    properties[name] = { ...spec, ...(description ? { description } : {}), ...(described.secretOutputs.includes(name) ? { secret: true } : {}) };
  }
  return { description: declaration.doc, properties, inputProperties, requiredInputs: args.required };
}

/** The repository's web address from package.json's `repository.url` (`git+https://…/x.git` gives `https://…/x`). */
function repositoryHome(url: string): string {
  const home = url.replace(/^git\+/, "").replace(/\.git$/, "");
  if (!/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/.test(home)) throw new Error(`package.json repository.url must be a GitHub repository, got ${url}`);
  return home;
}

/** The package schema, as JSON text (two-space indent, a final newline). */
export function buildSchema(): string {
  const pkg = JSON.parse(readFileSync(join(root(), "package.json"), "utf8")) as {
    version: string;
    description?: string;
    license?: string;
    homepage?: string;
    repository: { url: string };
  };
  const repository = repositoryHome(pkg.repository.url);
  const types = new SchemaTypes();
  const resources = Object.fromEntries(
    (Object.keys(kindDescriptions) as DescribedKind[]).map((kind) => [`${packageName}:index:${kind}`, resource(types, kind)]),
  );

  const fns: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(functions)) {
    const owner = name[3]!.toUpperCase() + name.slice(4);
    const inputs = types.fields(fn.declaration.args, owner, "input");
    const outputs = types.fields(fn.declaration.results, `${owner}Result`, "output");
    for (const key of fn.secretResults) if (outputs.properties[key]) outputs.properties[key]!.secret = true;
    fns[`${packageName}:index:${name}`] = {
      description: fn.declaration.doc,
      inputs: { properties: inputs.properties, required: inputs.required },
      outputs: { properties: outputs.properties, required: outputs.required },
    };
  }

  const variables: Record<string, PropertySpec> = {};
  for (const [name, entry] of Object.entries(configKeys)) {
    if ("packageOnly" in entry) continue;
    variables[name] = {
      type: entry.type,
      description: "env" in entry ? `${entry.doc} Falls back to the environment variable ${entry.env}.` : entry.doc,
      ...("secret" in entry ? { secret: true } : {}),
    };
  }

  const schema = {
    name: packageName,
    displayName: "AICP",
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    homepage: pkg.homepage,
    repository,
    // Where the engine downloads the plugin by itself (scripts/release.sh writes the archives a release carries there).
    pluginDownloadURL: `${repository}/releases/download/v\${VERSION}`,
    keywords: ["pulumi", "aicp", "coreshub", "gpu", "notebook", "machine-learning", "category/cloud", "kind/native"],
    // The registry shows it beside the package's name (docs/logo.svg of the repository).
    logoUrl: `${repository.replace("https://github.com/", "https://raw.githubusercontent.com/")}/main/docs/logo.svg`,
    meta: { moduleFormat: "(.*)" },
    config: { variables },
    provider: { description: "The AICP provider: one account and user on one platform (an explicit instance per account).", inputProperties: variables },
    resources,
    functions: fns,
    types: Object.fromEntries(Object.entries(types.types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      // Not "pulumi-aicp": that package's classes are dynamic resources of other
      // types, so code `pulumi import` writes for a TypeScript program must name
      // the plugin's own SDK (sdks/nodejs) or pasting it would replace the import.
      nodejs: { packageName: "pulumi-aicp-plugin", respectSchemaVersion: true },
      // The SDKs ask the engine for the plugin of the schema's version, which is the package's.
      python: { packageName: "pulumi_aicp", pyproject: { enabled: true }, respectSchemaVersion: true },
      // The module is sdks/go of the repository (tagged sdks/go/v<version> by a release).
      go: { importBasePath: `${repository.replace(/^https:\/\//, "")}/sdks/go/aicp`, respectSchemaVersion: true, generateResourceContainerTypes: false },
    },
  };
  return JSON.stringify(schema, null, 2) + "\n";
}

if (require.main === module) {
  const target = join(root(), "schema.json");
  const text = buildSchema();
  if (process.argv.includes("--check")) {
    const current = (() => {
      try {
        return readFileSync(target, "utf8");
      } catch {
        return "";
      }
    })();
    if (current !== text) {
      process.stderr.write("schema.json is stale: run `npm run generate`\n");
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
  }
}
