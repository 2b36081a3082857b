/**
 * Builds the provider's Pulumi package schema (schema.json) from what is
 * already described once: the SDK's TypeScript types (themselves derived from
 * the wire schemas, sdk/wire-types.ts), read with the TypeScript compiler
 * together with their TSDoc, and each kind's description (client/wire/kinds.ts)
 * for what replaces, what is secret and the defaults. Nothing here restates
 * a field: a field added to a wire schema reaches the schema at the next
 * `npm run generate`, and test/unit/plugin-schema.test.ts fails until then.
 *
 *   node dist/plugin/schema-build.js            writes schema.json
 *   node dist/plugin/schema-build.js --check    exits 1 when schema.json is stale
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { z } from "zod";
import * as wire from "../client/wire";
import { configKeys, type PackageOnlyConfigKey } from "../client/config";
import { kindDescriptions, type KindDescription } from "../client/wire/kinds";
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

const packageName = "aicp";

/** Names of object types by the property that holds them (one or many); any other takes its parent's name and its own. */
const typeNames: Record<string, string> = {
  replicaSpecs: "ReplicaSpecs",
  volumeSpecs: "VolumeSpec",
  customImageSecret: "ImageSecret",
  envs: "Env",
  servers: "NotebookServer",
  templates: "ResourceTemplate",
  pods: "TrainingPod",
  metrics: "DiskMetric",
  notebooks: "NotebookInfo",
};

/**
 * Resource outputs the client keeps as the platform sent them when they do not
 * parse (`tolerant` in client/wire/notebook.ts): typed in the schema, an odd
 * answer would fail every refresh of a Go program that cannot unmarshal it.
 */
const keptAsSent = new Set(["servers"]);

/** Fields nested in a type that are secret wherever they appear, by the type's name (client/wire/notebook.ts notebookSecretParts). */
const secretNested: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(wire.notebookSecretParts).map(([field, parts]) => [typeNames[field] ?? field, parts]),
);

/** Names of number fields the wire schemas type as integers (JSON schema from zod), camelCase. */
function integerFields(): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown, key?: string): void => {
    if (node === null || typeof node !== "object") return;
    const n = node as Record<string, unknown>;
    if (key && n.type === "integer") names.add(key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
    for (const [k, v] of Object.entries(n)) visit(v, k === "properties" || k === "items" || k === "anyOf" ? undefined : k);
    if (n.properties) for (const [k, v] of Object.entries(n.properties as object)) visit(v, k);
    if (n.items) visit(n.items, key);
  };
  for (const value of Object.values(wire)) {
    if (value instanceof z.ZodType) {
      try {
        visit(z.toJSONSchema(value, { unrepresentable: "any", io: "input" }));
      } catch {
        // A schema JSON Schema cannot express (a transform) says nothing of integers.
      }
    }
  }
  return names;
}

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

class SchemaBuilder {
  readonly types: Record<string, ObjectSpec> = {};
  private readonly checker: ts.TypeChecker;
  private readonly integers = integerFields();

  constructor(private readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  /** The exported symbol `name` of `file`. */
  exported(file: string, name: string): ts.Symbol {
    const source = this.program.getSourceFile(file);
    const module = source && this.checker.getSymbolAtLocation(source);
    const symbol = module && this.checker.getExportsOfModule(module).find((s) => s.name === name);
    if (!symbol) throw new Error(`${file} exports no ${name}`);
    return symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
  }

  /** The type the exported alias or interface `name` of `file` declares. */
  declaredType(file: string, name: string): ts.Type {
    return this.checker.getDeclaredTypeOfSymbol(this.exported(file, name));
  }

  docs(symbol: ts.Symbol): string | undefined {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    return text === "" ? undefined : text;
  }

  /** T without null, undefined, Promise<…> and Output<…> (what pulumi.Input<T> adds). */
  private plain(type: ts.Type): ts.Type[] {
    const members = type.isUnion() ? type.types : [type];
    return members.filter((t) => {
      if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) return false;
      const name = t.getSymbol()?.getName();
      return name !== "Promise" && name !== "OutputInstance" && name !== "Output";
    });
  }

  /** The schema property for a TypeScript type; `hint` names an object type made from it. */
  property(type: ts.Type, hint: string, field: string): PropertySpec {
    const members = this.plain(type);
    if (members.length === 0) return { $ref: "pulumi.json#/Any" };
    if (members.every((t) => t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral))) return { type: "boolean" };
    if (members.every((t) => t.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral))) return { type: "string" };
    if (members.every((t) => t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral))) {
      // A flag spelt 0 | 1 on the wire (autoRenew, customInfiniband) is an integer too.
      const integral = members.every((t) => t.isNumberLiteral() && Number.isInteger(t.value));
      return { type: this.integers.has(field) || integral ? "integer" : "number" };
    }
    if (members.length > 1) return { $ref: "pulumi.json#/Any" };
    const only = members[0]!;
    if (this.checker.isArrayType(only) || this.checker.isTupleType(only)) {
      const element = this.checker.getTypeArguments(only as ts.TypeReference)[0];
      return { type: "array", items: element ? this.property(element, hint, field) : { $ref: "pulumi.json#/Any" } };
    }
    if (only.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && this.checker.getPropertiesOfType(only).length > 0) {
      return { $ref: `#/types/${packageName}:index:${this.objectType(only, typeNames[field] ?? hint, hint)}` };
    }
    return { $ref: "pulumi.json#/Any" };
  }

  /**
   * Registers an object type under `name`, or under `fallback` when `name`
   * already holds another shape (an input's type and the richer answer of a
   * function differ: a program must not be offered the answer's fields).
   */
  objectType(type: ts.Type, name: string, fallback: string): string {
    const spec = this.properties(type, name);
    const existing = this.types[`${packageName}:index:${name}`];
    const sameShape = (t: ObjectSpec) => JSON.stringify(Object.keys(t.properties).sort()) === JSON.stringify(Object.keys(spec.properties).sort());
    const chosen = !existing || sameShape(existing) ? name : fallback;
    const token = `${packageName}:index:${chosen}`;
    this.types[token] ??= { type: "object", properties: spec.properties, required: spec.required };
    for (const key of secretNested[name] ?? []) if (this.types[token]!.properties[key]) this.types[token]!.properties[key]!.secret = true;
    return chosen;
  }

  /** Each property of an object type, with its TSDoc, and those a value must have. */
  properties(type: ts.Type, owner: string): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      const memberType = declaration ? this.checker.getTypeOfSymbolAtLocation(symbol, declaration) : this.checker.getTypeOfSymbol(symbol);
      const spec = this.property(memberType, `${owner}${symbol.name[0]!.toUpperCase()}${symbol.name.slice(1)}`, symbol.name);
      const description = this.docs(symbol);
      properties[symbol.name] = description ? { ...spec, description } : spec;
      if (!(symbol.flags & ts.SymbolFlags.Optional)) required.push(symbol.name);
    }
    return { properties, required };
  }

  /** The outputs a resource class declares (`declare readonly x: pulumi.Output<T>`), with their TSDoc. */
  classOutputs(file: string, className: string, inputs: Set<string>): Record<string, PropertySpec> {
    const symbol = this.exported(file, className);
    const declaration = symbol.valueDeclaration as ts.ClassDeclaration;
    const out: Record<string, PropertySpec> = {};
    for (const member of declaration.members) {
      if (!ts.isPropertyDeclaration(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
      const argument = member.type.typeArguments?.[0];
      const name = member.name.getText();
      if (!argument) continue;
      // An output that echoes an input has the input's type (its docs still come from here).
      if (inputs.has(name)) {
        const memberSymbol = this.checker.getSymbolAtLocation(member.name);
        const description = memberSymbol && this.docs(memberSymbol);
        if (description) out[name] = { description };
        continue;
      }
      const spec = keptAsSent.has(name)
        ? { type: "array", items: { $ref: "pulumi.json#/Any" } }
        : this.property(this.checker.getTypeFromTypeNode(argument), `${className}${name[0]!.toUpperCase()}${name.slice(1)}`, name);
      const memberSymbol = this.checker.getSymbolAtLocation(member.name);
      const description = memberSymbol && this.docs(memberSymbol);
      out[name] = description ? { ...spec, description } : spec;
    }
    return out;
  }
}

/** The schema of a resource kind: inputs from its Args type, outputs from its class, replacing, secret and default fields from its description. */
function resource(builder: SchemaBuilder, file: string, kind: keyof typeof kindDescriptions) {
  const described: KindDescription = kindDescriptions[kind];
  const args = builder.properties(builder.declaredType(file, `${kind}Args`), kind);
  // A kind whose outputs are generated from its field table declares them in a base class (sdk/notebook.generated.ts).
  const generated = file.replace(/\.ts$/, ".generated.ts");
  const [outputsFile, outputsClass] = existsSync(generated) ? [generated, `${kind}Properties`] : [file, kind];
  const outputs = builder.classOutputs(outputsFile, outputsClass, new Set(Object.keys(args.properties)));
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [name, spec] of Object.entries(args.properties)) {
    inputProperties[name] = {
      ...spec,
      ...(described.replace.includes(name) ? { willReplaceOnChanges: true } : {}),
      ...(name in described.defaults ? { default: described.defaults[name] } : {}),
    };
  }
  const properties: Record<string, PropertySpec> = {};
  for (const name of described.outputs) {
    const fromClass = outputs[name];
    const fromArgs = args.properties[name];
    // An output the class declares without TSDoc reads as the input it echoes.
    const spec = fromArgs ? { ...fromArgs, description: fromClass?.description ?? fromArgs.description } : (fromClass ?? { $ref: "pulumi.json#/Any" });
    properties[name] = { ...spec, ...(described.secretOutputs.includes(name) ? { secret: true } : {}) };
  }
  const classSymbol = builder.exported(file, kind);
  return { description: builder.docs(classSymbol), properties, inputProperties, requiredInputs: args.required };
}

/** The package schema, as JSON text (two-space indent, a final newline). */
export function buildSchema(): string {
  const base = root();
  const file = (relative: string) => join(base, relative);
  const program = ts.createProgram([file("sdk/index.ts")], {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
  });
  const builder = new SchemaBuilder(program);
  const checker = program.getTypeChecker();
  const pkg = JSON.parse(readFileSync(file("package.json"), "utf8")) as { version: string; description?: string; license?: string; homepage?: string };

  // Each described kind, from its SDK file (sdk/<kind in kebab case>.ts).
  const resources = Object.fromEntries(
    (Object.keys(kindDescriptions) as Array<keyof typeof kindDescriptions>).map((kind) => [
      `${packageName}:index:${kind}`,
      resource(builder, file(`sdk/${kebab(kind)}.ts`), kind),
    ]),
  );

  const fns: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(functions)) {
    const source = file(`sdk/functions/${kebab(name)}.ts`);
    const symbol = builder.exported(source, name);
    const signature = checker.getSignaturesOfType(checker.getTypeOfSymbol(symbol), ts.SignatureKind.Call)[0]!;
    const argsType = checker.getTypeOfSymbol(signature.getParameters()[0]!);
    const resultType = checker.getTypeArguments(signature.getReturnType() as ts.TypeReference)[0]!;
    const inputs = builder.properties(checker.getNonNullableType(argsType), name[3]!.toUpperCase() + name.slice(4));
    const outputs = builder.properties(resultType, name[3]!.toUpperCase() + name.slice(4) + "Result");
    for (const key of fn.secretResults) if (outputs.properties[key]) outputs.properties[key]!.secret = true;
    fns[`${packageName}:index:${name}`] = {
      description: builder.docs(symbol),
      inputs: { properties: inputs.properties, required: inputs.required },
      outputs: { properties: outputs.properties, required: outputs.required },
    };
  }

  const variables: Record<string, PropertySpec> = {};
  for (const [name, entry] of Object.entries(configKeys)) {
    if ("packageOnly" in entry) continue;
    variables[name] = {
      type: name === "requestTimeoutSeconds" ? "number" : name === "allowInsecureHttp" ? "boolean" : "string",
      description: `${configAbout[name as keyof typeof configAbout]} Falls back to the environment variable ${entry.env}.`,
      ...(name === "secretAccessKey" ? { secret: true } : {}),
    };
  }

  const schema = {
    name: packageName,
    displayName: "AICP",
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    homepage: pkg.homepage,
    keywords: ["pulumi", "aicp", "coreshub", "category/cloud", "kind/native"],
    meta: { moduleFormat: "(.*)" },
    config: { variables },
    provider: { description: "The AICP provider: one account and user on one platform (an explicit instance per account).", inputProperties: variables },
    resources,
    functions: fns,
    types: Object.fromEntries(Object.entries(builder.types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      // Not "pulumi-aicp": that package's classes are dynamic resources of other
      // types, so code `pulumi import` writes for a TypeScript program must name
      // the plugin's own SDK (sdks/nodejs) or pasting it would replace the import.
      nodejs: { packageName: "pulumi-aicp-plugin", respectSchemaVersion: true },
      // The SDKs ask the engine for the plugin of the schema's version, which is the package's.
      python: { packageName: "pulumi_aicp", pyproject: { enabled: true }, respectSchemaVersion: true },
      // Not a download location: the Go SDK is used from this repository (sdks/go, README "Go").
      go: { importBasePath: "aicp.local/pulumi-aicp/sdk/go/aicp", respectSchemaVersion: true, generateResourceContainerTypes: false },
    },
  };
  return JSON.stringify(schema, null, 2) + "\n";
}

/** `ResourceGroup` → `resource-group`, `getNotebooks` → `get-notebooks`: the SDK's file names. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c, at: number) => `${at === 0 ? "" : "-"}${c.toLowerCase()}`);
}

/** What each configuration key is, as the README's configuration table says. */
const configAbout: Record<Exclude<keyof typeof configKeys, PackageOnlyConfigKey>, string> = {
  baseUrl: "Origin of the platform's API, e.g. https://ai.coreshub.cn.",
  pathPrefix: "Path prefix of the API (/aicp or /qai/aicp); learned from the platform when not set.",
  signatureBody: "What a write's signature hashes (empty or body); learned from the first write when not set.",
  platformTimeZone: "Zone of date-times the platform writes without one, e.g. +08:00; learned when not set.",
  accessKeyId: "Access key id of the account.",
  secretAccessKey: "Secret access key of the account.",
  userId: "The user the provider acts for; its namespace is the id in lower case.",
  zone: "Zone sent with every request, e.g. xb3.",
  routes: "JSON object of route overrides for operations whose path the platform does not document.",
  requestTimeoutSeconds: "Timeout of one request, in seconds (default 30).",
  allowInsecureHttp: "Allow an http:// baseUrl other than localhost (default false).",
};

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
