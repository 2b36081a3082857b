/**
 * The Node.js the package, its dynamic provider, the plugin and the doctor
 * need, and the one line each says under an older one (issue 25, "a clear
 * minimum Node"). The minimum is written once, in package.json's "engines"
 * (`>=22.19`), and read from there; scripts/bootstrap.sh reads it too.
 *
 * Why 22.19: undici 8, the client's HTTP stack (client/transport.ts),
 * declares `engines >=22.19.0`, and on load reads zlib's zstd functions
 * (Node 22.15 and later), so on Node 20 requiring it fails `TypeError: Cannot
 * read properties of undefined (reading 'bind')`. Node 22.18 and later also
 * strip TypeScript types by default, which the stand-in language host relies
 * on to run `index.ts` programs (tools/language-host/).
 *
 * Each entry point loads the check before anything that could fail on an old
 * Node (compiled CommonJS requires run in order): sdk/node-check.ts is the first
 * import of sdk/index.ts and of provider/entry.ts (`pulumi-aicp/provider`),
 * cli/node-check.ts of cli/index.ts, and bin/pulumi-resource-aicp preloads
 * plugin/node-check.ts (`node --require`). So this module uses Node's own
 * modules only, and no syntax newer than Node 14's.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isSingleExecutable } from "./single-executable";

/** The package's manifest: the first package.json named pulumi-aicp above `from` (dist/client/ once built, client/ in the tests). */
function manifest(from: string): { engines?: { node?: string } } {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const found = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; engines?: { node?: string } };
      if (found.name === "pulumi-aicp") return found;
    } catch {
      // No package.json here, or not JSON: look further up.
    }
    if (dirname(dir) === dir) throw new Error(`pulumi-aicp: no package.json of pulumi-aicp above ${from}`);
  }
}

/** The oldest Node.js the package runs on, as package.json's "engines" names it (`>=22.19` gives "22.19"). */
export function minimumNode(from: string = __dirname): string {
  const range = manifest(from).engines?.node ?? "";
  const match = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim());
  if (!match) throw new Error(`pulumi-aicp: package.json "engines" must name the minimum Node.js as ">=X.Y", not ${JSON.stringify(range)}`);
  return match[1]!;
}

/** Whether dotted version `version` ("20.20.2", a leading "v" allowed) is older than `minimum` ("22.19"). */
export function olderThan(version: string, minimum: string): boolean {
  const have = version.replace(/^v/, "").split(".").map(Number);
  const want = minimum.split(".").map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a < b;
  }
  return false;
}

/**
 * The one line `who` says under a Node.js older than the minimum, naming the
 * Node it runs on and where it is, and `advice` after it; undefined on a Node
 * new enough.
 */
export function nodeTooOld(who: string, advice = "", version: string = process.version, path: string = process.execPath): string | undefined {
  const minimum = minimumNode();
  if (!olderThan(version, minimum)) return undefined;
  return `${who} needs Node.js ${minimum} or newer; this is Node.js ${version} (${path})${advice ? `; ${advice}` : ""}`;
}

/**
 * For what a program loads (the package, its dynamic provider): throws the
 * line. The error is marked as Pulumi marks its RunError
 * (`__pulumiRunError`, which `RunError.isInstance` reads), so Pulumi's nodejs
 * runtimes (the language host's and the Automation API's) print the message
 * alone, without a stack; the dynamic provider answers the engine with the
 * message.
 */
export function throwIfNodeTooOld(who: string): void {
  const line = nodeTooOld(who);
  if (line === undefined) return;
  const error = new Error(line);
  Object.defineProperty(error, "__pulumiRunError", { value: true });
  throw error;
}

/** For a command (the plugin, the doctor): prints the line on stderr and exits 1. */
export function exitIfNodeTooOld(who: string, advice = ""): void {
  // A single executable carries the Node.js it was built with (scripts/plugin-executable.sh).
  if (isSingleExecutable()) return;
  const line = nodeTooOld(who, advice);
  if (line === undefined) return;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}
