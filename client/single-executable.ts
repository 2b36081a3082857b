/**
 * The plugin as one self-contained executable (scripts/plugin-executable.sh):
 * Node.js's single executable application, whose main script is the bundled
 * plugin and whose assets are the package files it reads (package.json,
 * schema.json). Outside one, nothing here applies and the files are read from
 * the package folder.
 */
import sea from "node:sea";

/** Whether this process is the single executable. */
export const isSingleExecutable = (): boolean => sea.isSea();

/** A package file the single executable carries as an asset; undefined outside one. */
export function packagedFile(name: string): string | undefined {
  return sea.isSea() ? sea.getAsset(name, "utf8") : undefined;
}
