/**
 * The property names a declared TypeScript type has, read by the compiler
 * from the source, so a test can compare what the SDK promises with what the
 * engine hands a program at run time.
 */
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
  return checker.getPropertiesOfType(type).map((p) => p.name).sort();
}
