/**
 * Builds the provider's Pulumi package schema (schema.json) from the
 * descriptions: each kind's declaration (client/wire/index.ts: every field's
 * rule as a zod schema and its documentation; what replaces, what is secret
 * and the defaults), each function's (plugin/functions.ts), and the
 * configuration keys (client/config.ts). A rule becomes a schema type through
 * plugin/schema-types.ts (zod's JSON Schema, named by a `title` or by its
 * owner; closed sets of strings as enums). Nothing here restates a field:
 * a field added to a description reaches the schema at the next
 * `npm run generate`, and test/unit/plugin-schema.test.ts fails until then.
 *
 *   node dist/plugin/schema-build.js            writes schema.json
 *   node dist/plugin/schema-build.js --check    exits 1 when schema.json is stale
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configKeys } from "../client/config";
import type { KindDescription } from "../client/wire/kind";
import { kindDescriptions, type DescribedKind } from "../client/wire";
import { functions } from "./functions";
import { anyValue, jsonOf, packageName, SchemaTypes, type PropertySpec } from "./schema-types";

/** Pulumi schema property (the subset this package uses). */
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
    // An output is what the state records, not what a program may give: a string, not the input's enum (a refresh records "Failed").
    const spec = output?.schema
      ? types.property(jsonOf(output.schema, "output"), `${kind}${name[0]!.toUpperCase()}${name.slice(1)}`)
      : echoed
        ? types.withoutEnum(echoed)
        : anyValue;
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
