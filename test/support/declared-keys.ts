/**
 * The property names a declared TypeScript type has, read by the compiler
 * from the source, so a test can compare what the SDK promises with what the
 * engine hands a program at run time.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

/** Properties of the type (alias or interface) `typeName` exported by `file`, its null and undefined left out. */
export function declaredKeys(file: string, typeName: string): string[] {
  return declaredMembers(file, typeName)
    .map((m) => m.name)
    .sort();
}

/** The properties the class `className` exported by `file` declares in that file itself (its outputs), not those it inherits. */
export function declaredOutputs(file: string, className: string): string[] {
  // The class's own members are syntax: parsing the one file is enough (no program, no imports resolved).
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const declaration = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!declaration) throw new Error(`${file} declares no class ${className}`);
  return declaration.members
    .filter((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Ambient) !== 0)
    .map((m) => m.name.getText(source))
    .sort();
}

/** One property of a declared type: whether a value may leave it out, its TSDoc (whitespace collapsed), and what kind of value it holds. */
export interface DeclaredMember {
  name: string;
  optional: boolean;
  doc: string;
  kind: ValueKind;
}

/** What a value is, as far as a Pulumi schema tells languages apart. */
export type ValueKind = "string" | "number" | "boolean" | "array" | "object" | "any";

/** The properties of the type `typeName` exported by `file`, with their optionality and TSDoc, by name. */
export function declaredMembers(file: string, typeName: string): DeclaredMember[] {
  const { checker, symbol } = exportedSymbol(file, typeName);
  const type = checker.getNonNullableType(checker.getDeclaredTypeOfSymbol(symbol));
  return checker
    .getPropertiesOfType(type)
    .map((p) => ({
      name: p.name,
      optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
      doc: docOf(checker, p),
      kind: kindOf(checker, checker.getTypeOfSymbol(p)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The TSDoc of the value (class or function) `name` exported by `file`, its tags left out, whitespace collapsed. */
export function declaredDoc(file: string, name: string): string {
  const { checker, symbol } = exportedSymbol(file, name);
  return docOf(checker, symbol);
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  esModuleInterop: true,
};

/**
 * One program and one type checker per process: building them reads and checks @pulumi/pulumi's
 * declarations (seconds each time). It is rooted at the SDK's index, which imports every file these
 * tests ask about; a file outside it makes a new program with both.
 */
let program: ts.Program | undefined;

function programFor(file: string): ts.Program {
  if (program?.getSourceFile(file)) return program;
  program = ts.createProgram([...(program?.getRootFileNames() ?? [resolve("sdk/index.ts")]), file], compilerOptions, undefined, program);
  return program;
}

function exportedSymbol(file: string, name: string): { checker: ts.TypeChecker; symbol: ts.Symbol } {
  const current = programFor(file);
  const checker = current.getTypeChecker();
  const source = current.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  const found = module && checker.getExportsOfModule(module).find((s) => s.name === name);
  if (!found) throw new Error(`${file} exports no ${name}`);
  return { checker, symbol: found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found };
}

function docOf(checker: ts.TypeChecker, symbol: ts.Symbol): string {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, " ").trim();
}

/** The TypeScript SDK's file of a kind (`ResourceGroup` → sdk/resource-group.ts); the tests that read it fail when it is not there. */
export function sdkFileOf(kind: string): string {
  return `sdk/${kind.replace(/[A-Z]/g, (c, at: number) => `${at === 0 ? "" : "-"}${c.toLowerCase()}`)}.ts`;
}

/** The kind of value a type holds, past null, undefined and what pulumi.Input adds (Promise, Output). */
function kindOf(checker: ts.TypeChecker, type: ts.Type): ValueKind {
  const members = (type.isUnion() ? type.types : [type]).filter((t) => {
    if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) return false;
    const name = t.getSymbol()?.getName();
    return name !== "Promise" && name !== "OutputInstance" && name !== "Output";
  });
  const all = (flags: ts.TypeFlags) => members.length > 0 && members.every((t) => t.flags & flags);
  if (all(ts.TypeFlags.BooleanLike)) return "boolean";
  if (all(ts.TypeFlags.StringLike)) return "string";
  if (all(ts.TypeFlags.NumberLike)) return "number";
  if (members.length !== 1) return "any";
  const only = members[0]!;
  if (checker.isArrayType(only) || checker.isTupleType(only)) return "array";
  return only.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && checker.getPropertiesOfType(only).length > 0 ? "object" : "any";
}
