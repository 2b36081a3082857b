/**
 * The property names a declared TypeScript type has, read by the compiler
 * from the source, so a test can compare what the SDK promises with what the
 * engine hands a program at run time.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";

/** Properties of the type (alias or interface) `typeName` exported by `file`, its null and undefined left out. */
export function declaredKeys(file: string, typeName: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  const symbol = module && checker.getExportsOfModule(module).find((s) => s.name === typeName);
  if (!symbol) throw new Error(`${file} exports no type ${typeName}`);
  const type = checker.getNonNullableType(checker.getDeclaredTypeOfSymbol(symbol));
  return checker
    .getPropertiesOfType(type)
    .map((p) => p.name)
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
