/**
 * The plugin as one self-contained executable (scripts/plugin-executable.sh):
 * Node.js's single executable application, whose main script is the bundled
 * plugin and whose assets are the package files it reads (package.json,
 * schema.json). Outside one, nothing here applies and the files are read from
 * the package folder.
 */

/** node:sea, which Node.js has from 20.12 and 21.7: loaded when asked, so an older Node still gets the version check's one line. */
function sea(): typeof import("node:sea") | undefined {
  try {
    return require("node:sea") as typeof import("node:sea");
  } catch {
    return undefined;
  }
}

/** Whether this process is the single executable. */
export const isSingleExecutable = (): boolean => sea()?.isSea() ?? false;

/** A package file the single executable carries as an asset; undefined outside one. */
export function packagedFile(name: string): string | undefined {
  return isSingleExecutable() ? sea()!.getAsset(name, "utf8") : undefined;
}
