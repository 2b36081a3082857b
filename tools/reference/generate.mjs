// Writes the reference pages, one per resource and per function, under
// docs/reference/: every input and output with its type, whether it is
// required, its default, its allowed values, its secrecy and (for a resource's
// inputs) what a change does, from schema.json (what every language sees) and
// the kinds' descriptions (client/wire/index.ts kindDescriptions: defaults and
// change behaviour) and the functions' registry (functions/index.ts).
//
//   node tools/reference/generate.mjs           writes the pages (npm run generate runs it)
//   node tools/reference/generate.mjs --check   exits 1 when a page is stale (test/unit/reference-docs.test.ts)
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { loadSource, repo } from "../sdk-types/common.mjs";

const out = process.env.AICP_REFERENCE_DIR ?? join(repo, "docs/reference");
const { z } = createRequire(join(repo, "package.json"))("zod");
const schema = JSON.parse(readFileSync(join(repo, "schema.json"), "utf8"));
const wire = loadSource("client/wire/index.ts");
const { functionRegistry } = loadSource("functions/index.ts");
/** The field tables that name the write applying an in-place change, by kind. */
const fieldTables = { Notebook: wire.notebookFields, ResourceGroup: wire.resourceGroupKind.fields };

const cell = (text) =>
  String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\s+/g, " ")
    .trim();
const code = (value) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
const tokenName = (ref) => ref.split(":").pop();

/** A schema property's type, as a reader names it; an object type links to its section. */
function typeOf(property) {
  if (property.$ref === "pulumi.json#/Any") return "any";
  // An enum is a string; its values are in the row's allowed values.
  if (property.$ref && schema.types[property.$ref.slice(8)]?.enum) return "string";
  if (property.$ref) return `[${tokenName(property.$ref)}](#${tokenName(property.$ref).toLowerCase()})`;
  if (property.type === "array") return `list of ${typeOf(property.items ?? {})}`;
  if (property.type === "object") return `map of ${typeOf(property.additionalProperties ?? { type: "string" })}`;
  return property.type ?? "any";
}

/** The values a zod rule allows, when it allows only some (an enum, literals). */
function allowedValues(rule) {
  if (!rule) return "";
  let json;
  try {
    json = z.toJSONSchema(rule, { unrepresentable: "any", io: "input" });
  } catch {
    return "";
  }
  const values = [];
  const walk = (node) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node.enum)) values.push(...node.enum);
    if (node.const !== undefined) values.push(node.const);
    for (const inner of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(inner);
    if (node.type === "array") walk(node.items);
  };
  walk(json);
  return [...new Set(values.filter((v) => v !== null))].map(code).join(", ");
}

/** A nested field's allowed values, when its type is an enum (a top-level input shows them in a column of its own). */
function enumValues(property) {
  const ref = property.$ref ?? property.items?.$ref;
  const values = ref && schema.types[ref.slice(8)]?.enum?.map((e) => code(e.value));
  return values ? ` One of ${values.join(", ")}.` : "";
}

/** What a change of the input does, from the kind's description and field table. */
function onChange(kind, name) {
  const described = wire.kindDescriptions[kind];
  const write = fieldTables[kind]?.[name]?.change;
  if (described.replace.includes(name)) return "replaces";
  if (described.inPlaceWhen[name]) return `in place when ${described.inPlaceWhen[name]} (by ${write}); replaces otherwise`;
  if (described.readAtCreateOnly.includes(name)) return "read at create only";
  if (described.inPlace.includes(name)) return write && write !== "record" ? `in place (by ${write})` : "in place (recorded, nothing sent)";
  return "";
}

/** The object types a set of properties refers to, and those they refer to in turn. */
function referenced(properties, found = new Set()) {
  for (const property of Object.values(properties)) {
    const ref = property.$ref ?? property.items?.$ref;
    if (ref && ref.startsWith("#/types/") && !found.has(ref.slice(8)) && !schema.types[ref.slice(8)].enum) {
      found.add(ref.slice(8));
      referenced(schema.types[ref.slice(8)].properties ?? {}, found);
    }
  }
  return found;
}

function typesSection(tokens) {
  return [...tokens].sort().flatMap((token) => {
    const type = schema.types[token];
    const required = new Set(type.required ?? []);
    const rows = Object.entries(type.properties ?? {}).map(
      ([name, p]) =>
        `| \`${name}\` | ${typeOf(p)} | ${required.has(name) ? "yes" : "no"} | ${p.secret ? "yes" : ""} | ${cell(p.description)}${enumValues(p)} |`,
    );
    return [`### ${tokenName(token)}`, "", "| Property | Type | Required | Secret | Description |", "|---|---|---|---|---|", ...rows, ""];
  });
}

const header = (title) => [`<!-- Generated by tools/reference/generate.mjs from schema.json and the descriptions: do not edit. -->`, "", `# ${title}`, ""];

function resourcePage(kind) {
  const resource = schema.resources[`aicp:index:${kind}`];
  const described = wire.kindDescriptions[kind];
  const required = new Set(resource.requiredInputs ?? []);
  const inputs = Object.entries(resource.inputProperties).map(([name, p]) => {
    const rule = described.declaration.inputs[name]?.schema;
    const dflt = name in described.defaults ? code(described.defaults[name]) : "";
    return `| \`${name}\` | ${typeOf(p)} | ${required.has(name) ? "yes" : "no"} | ${dflt} | ${allowedValues(rule)} | ${p.secret ? "yes" : ""} | ${onChange(kind, name)} | ${cell(p.description)} |`;
  });
  const outputs = Object.entries(resource.properties).map(([name, p]) => `| \`${name}\` | ${typeOf(p)} | ${p.secret ? "yes" : ""} | ${cell(p.description)} |`);
  return [
    ...header(`${kind} (\`aicp:index:${kind}\`)`),
    cell(resource.description),
    "",
    "## Inputs",
    "",
    "| Input | Type | Required | Default | Allowed values | Secret | A change | Description |",
    "|---|---|---|---|---|---|---|---|",
    ...inputs,
    "",
    "## Outputs",
    "",
    "Every input is also an output. Besides them:",
    "",
    "| Output | Type | Secret | Description |",
    "|---|---|---|---|",
    ...outputs.filter((row) => !(row.split("`")[1] in resource.inputProperties)),
    "",
    "## Types",
    "",
    ...typesSection(referenced({ ...resource.inputProperties, ...resource.properties })),
  ].join("\n");
}

function functionPage(name) {
  const declared = schema.functions[`aicp:index:${name}`];
  const fn = functionRegistry[name];
  const required = new Set(declared.inputs.required ?? []);
  const args = Object.entries(declared.inputs.properties).map(
    ([arg, p]) =>
      `| \`${arg}\` | ${typeOf(p)} | ${required.has(arg) ? "yes" : "no"} | ${allowedValues(fn.declaration.args[arg]?.schema)} | ${cell(p.description)} |`,
  );
  const results = Object.entries(declared.outputs.properties).map(
    ([result, p]) => `| \`${result}\` | ${typeOf(p)} | ${fn.secretResults.includes(result) ? "yes" : ""} | ${cell(p.description)} |`,
  );
  return [
    ...header(`${name} (\`aicp:index:${name}\`)`),
    cell(declared.description),
    "",
    "In TypeScript, `pulumi-aicp` exports it as `" + name + "` (a Promise) and `" + name + "Output` (an Output);",
    "the plugin's SDKs name it as their language does (Python `" + name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) + "`), and YAML calls it with",
    "`fn::invoke` and `function: aicp:index:" + name + "`.",
    "",
    "```typescript",
    fn.example,
    "```",
    "",
    "## Arguments",
    "",
    "| Argument | Type | Required | Allowed values | Description |",
    "|---|---|---|---|---|",
    ...args,
    "",
    "## Results",
    "",
    "| Result | Type | Secret | Description |",
    "|---|---|---|---|",
    ...results,
    "",
    "## Types",
    "",
    ...typesSection(referenced(declared.outputs.properties)),
  ].join("\n");
}

function indexPage(kinds, names) {
  return [
    ...header("Reference"),
    "One page per resource and per function, generated from the provider's schema.",
    "",
    "## Resources",
    "",
    ...kinds.map((kind) => `- [${kind}](${kind}.md)`),
    "",
    "## Functions",
    "",
    ...names.map((name) => `- [${name}](${name}.md)`),
    "",
  ].join("\n");
}

const kinds = Object.keys(wire.kindDescriptions);
const names = Object.keys(functionRegistry);
const pages = new Map([
  ["README.md", indexPage(kinds, names)],
  ...kinds.map((kind) => [`${kind}.md`, resourcePage(kind) + "\n"]),
  ...names.map((name) => [`${name}.md`, functionPage(name) + "\n"]),
]);

if (process.argv.includes("--check")) {
  let current = [];
  try {
    current = readdirSync(out);
  } catch {
    // missing: every page is stale
  }
  const stale = [...pages].filter(([file, text]) => {
    try {
      return readFileSync(join(out, file), "utf8") !== text;
    } catch {
      return true;
    }
  });
  const extra = current.filter((file) => !pages.has(file));
  for (const [file] of stale) console.error(`docs/reference/${file} is stale: run \`npm run generate\``);
  for (const file of extra) console.error(`docs/reference/${file} is no resource or function's page: remove it, or run \`npm run generate\``);
  if (stale.length > 0 || extra.length > 0) process.exitCode = 1;
} else {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [file, text] of pages) writeFileSync(join(out, file), text);
}
