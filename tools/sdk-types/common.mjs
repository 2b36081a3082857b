// What the generators of tools/sdk-types share: the repository's root, loading
// one of its TypeScript modules from source, and writing a TSDoc comment.
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Loads a TypeScript module of this repository from its source (transpiled on the fly), so a stale dist/ cannot mislead. */
export function loadSource(relative) {
  const previous = Module._extensions[".ts"];
  Module._extensions[".ts"] = (module, filename) => {
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
    module._compile(ts.transpileModule(readFileSync(filename, "utf8"), { compilerOptions, fileName: filename }).outputText, filename);
  };
  try {
    return createRequire(import.meta.url)(join(repo, relative));
  } finally {
    Module._extensions[".ts"] = previous;
  }
}

/** A TSDoc comment of `text`, indented by `indent`, wrapped at about 100 columns. */
export function tsdoc(text, indent) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length === 1 ? `${indent}/** ${lines[0]} */` : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`].join("\n");
}
