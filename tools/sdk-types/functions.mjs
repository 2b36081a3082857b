// Writes sdk/functions.generated.ts: each data-source function of the registry
// (functions/index.ts) in the TypeScript package, with its argument and result
// types spelled out (no zod type reaches a program's compiler), its document
// and example, a Promise form, and an Output form unless the function keeps
// results secret (those mark each secret value by hand, sdk/functions/).
//
// A result that is a list of a titled schema (`.meta({ title })`) is typed by
// that name: the SDK's own type where sdk/types.ts exports one, otherwise a type
// this file declares.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { loadSource, repo, tsdoc } from "./common.mjs";

const virtualFile = join(repo, "sdk/__function-types.ts");

/** The names of the types sdk/types.ts exports (its own and those it re-exports). */
function sdkTypeNames() {
  const file = ts.createSourceFile("types.ts", readFileSync(join(repo, "sdk/types.ts"), "utf8"), ts.ScriptTarget.ES2022);
  const names = new Set();
  for (const s of file.statements) {
    if (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) names.add(s.name.text);
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) s.exportClause.elements.forEach((e) => names.add(e.name.text));
  }
  return names;
}

/** The names sdk/index.ts exports by name (its classes and types): a result type of that name would be shadowed by them. */
function packageNames() {
  const file = ts.createSourceFile("index.ts", readFileSync(join(repo, "sdk/index.ts"), "utf8"), ts.ScriptTarget.ES2022);
  return new Set(
    file.statements.flatMap((s) =>
      ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause) ? s.exportClause.elements.map((e) => e.name.text) : [],
    ),
  );
}

/** The title of the items of a list schema, when they carry one. */
function itemTitle(schema) {
  return schema?.def?.type === "array" ? schema.def.element.meta()?.title : undefined;
}

/** Spells out each `[name, type expression]` with the compiler, in a program that sees the registry's types. */
function spelled(expressions) {
  const text = [
    'import type { z } from "zod";',
    'import type { Camelized } from "../client/case";',
    'import type { functionRegistry } from "../functions";',
    "type Registry = typeof functionRegistry;",
    ...expressions.map(([name, expression]) => `export type ${name} = ${expression};`),
  ].join("\n");
  const options = { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === virtualFile ? text : readFile(file));
  host.fileExists = (file) => file === virtualFile || ts.sys.fileExists(file);
  host.getSourceFile = (file, version) => (file === virtualFile ? ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true) : getSourceFile(file, version));
  const program = ts.createProgram([virtualFile], { ...options, target: ts.ScriptTarget.ES2022 }, host);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(virtualFile);
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals;
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const result = new Map();
  for (const statement of file.statements.filter(ts.isTypeAliasDeclaration)) {
    if (!expressions.some(([name]) => name === statement.name.text)) continue;
    const node = checker.typeToTypeNode(checker.getTypeAtLocation(statement.name), statement, flags);
    const typeText = printer.printNode(ts.EmitHint.Unspecified, node, file);
    if (/\bz\.|import\(|Registry|\bany\b/.test(typeText)) throw new Error(`${statement.name.text} is not spelled out: ${typeText.slice(0, 200)}`);
    result.set(statement.name.text, typeText);
  }
  return result;
}

const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const upperFirst = (name) => `${name[0].toUpperCase()}${name.slice(1)}`;
/** A spelled type indented for a member at `indent` (an optional one keeps `| undefined`, for programs compiled with exactOptionalPropertyTypes). */
const memberType = (text, optional, indent) => (optional && !/ \| undefined$/.test(text) ? `${text} | undefined` : text).replace(/\n/g, `\n${indent}`);

/** The document of a function with its example. */
function functionDoc(doc, example) {
  const body = tsdoc(doc, "").split("\n");
  const lines = body.length === 1 ? [body[0].slice(4, -3)] : body.slice(1, -1).map((l) => l.slice(3));
  return ["/**", ...lines.map((l) => ` * ${l}`), " *", " * @example", ...example.split("\n").map((l) => ` * ${l}`), " */"].join("\n");
}

export function generateFunctions() {
  const { functionRegistry } = loadSource("functions/index.ts");
  const known = sdkTypeNames();
  const taken = packageNames();
  const expressions = [];
  const titled = new Map();
  for (const [name, fn] of Object.entries(functionRegistry)) {
    const at = `Registry["${name}"]["declaration"]`;
    for (const arg of Object.keys(fn.declaration.args)) expressions.push([`A_${name}_${arg}`, `Camelized<z.input<${at}["args"]["${arg}"]["schema"]>>`]);
    for (const [result, field] of Object.entries(fn.declaration.results)) {
      const title = itemTitle(field.schema);
      if (title && !known.has(title) && taken.has(title)) {
        throw new Error(`${name}'s result ${result} is titled ${title}, a name sdk/index.ts already exports: give its schema another title`);
      }
      if (title && !known.has(title) && !titled.has(title)) {
        // A schema that settles the platform's spellings first (z.preprocess) is a pipe: its fields are its output's.
        const element = field.schema.def.element;
        const object = element.def.type === "pipe" ? element.def.out : element;
        titled.set(title, { element, object });
        const path = `${at}["results"]["${result}"]["schema"]["element"]${object === element ? "" : '["out"]'}["shape"]`;
        for (const key of Object.keys(object.shape)) expressions.push([`T_${title}_${key}`, `Camelized<z.output<${path}["${key}"]>>`]);
      }
      if (!title) expressions.push([`R_${name}_${result}`, `Camelized<z.output<${at}["results"]["${result}"]["schema"]>>`]);
    }
  }
  const types = spelled(expressions);
  const sdkTypes = new Set();
  const parts = [];
  for (const [title, { element, object }] of titled) {
    const members = Object.entries(object.shape).map(([key, schema]) => {
      const type = types.get(`T_${title}_${key}`);
      const optional = / \| undefined$/.test(type);
      const docText = schema.description;
      return `${docText ? tsdoc(docText, "  ") + "\n" : ""}  ${camel(key)}${optional ? "?" : ""}: ${memberType(type, optional, "  ")};`;
    });
    // A loose object keeps what the platform adds beside the fields it names.
    const rest = object.def.catchall?.def?.type === "unknown" ? ["  [key: string]: unknown;"] : [];
    parts.push(tsdoc(`${element.description ?? title} (camelCase).`, ""), `export interface ${title} {`, ...members, ...rest, "}", "");
  }
  for (const [name, fn] of Object.entries(functionRegistry)) {
    const { args, results, doc } = fn.declaration;
    const Name = upperFirst(name);
    const argMembers = Object.entries(args).map(([arg, field]) => {
      const optional = !field.required;
      const docText = field.doc ?? field.schema.description;
      const type = memberType(types.get(`A_${name}_${arg}`), optional, "  ");
      return `${docText ? tsdoc(docText, "  ") + "\n" : ""}  ${arg}${optional ? "?" : ""}: ${type};`;
    });
    const resultMembers = Object.entries(results).map(([result, field]) => {
      const optional = !field.required;
      const title = itemTitle(field.schema);
      if (title && known.has(title)) sdkTypes.add(title);
      const type = title ? `${title}[]` : memberType(types.get(`R_${name}_${result}`), optional, "  ");
      const docText = field.doc ?? field.schema.description;
      return `${docText ? tsdoc(docText, "  ") + "\n" : ""}  readonly ${result}${optional ? "?" : ""}: ${type};`;
    });
    const anyRequired = Object.values(args).some((field) => field.required);
    parts.push(
      `/** Arguments of ${name}. */`,
      `export interface ${Name}Args {`,
      ...argMembers,
      "}",
      "",
      `/** Result of ${name}. */`,
      `export interface ${Name}Result {`,
      ...resultMembers,
      "}",
      "",
      functionDoc(doc, fn.example),
      `export function ${name}(args: ${Name}Args${anyRequired ? "" : " = {}"}, opts?: pulumi.InvokeOptions): Promise<${Name}Result> {`,
      `  return promiseForm(functionRegistry.${name})(args, opts);`,
      "}",
      "",
    );
    if (fn.secretResults.length === 0) {
      parts.push(`/** {@link ${name}} with arguments that may be Outputs. */`, `export const ${name}Output = outputForm(${name});`, "");
    }
  }
  return [
    "// Generated by tools/sdk-types/functions.mjs from the registry of data-source functions (functions/index.ts):",
    "// do not edit. `npm run generate` rewrites this file, and the test suite fails when it is stale.",
    "",
    'import type * as pulumi from "@pulumi/pulumi";',
    'import { functionRegistry } from "../functions";',
    'import { outputForm, promiseForm } from "./functions/program-client";',
    ...(sdkTypes.size > 0 ? [`import type { ${[...sdkTypes].sort().join(", ")} } from "./types";`] : []),
    "",
    ...parts,
  ].join("\n");
}
