/**
 * vitest global setup for the unit and contract projects: a few of their tests run the compiled
 * commands as a user does (`pulumi-aicp doctor`, the plugin, the emulator's command line), so
 * `npm run test:fast` on a fresh clone compiles them first, once, here, where no test's timeout
 * runs: with `tsc -p tsconfig.json` as `npm run build` does, and only when a source file is newer
 * than its output (CI builds before it tests, so there it does nothing).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const repo = resolve(__dirname, "../..");

/** The folders tsconfig.json compiles. */
function sourceFolders(): string[] {
  const config = JSON.parse(readFileSync(join(repo, "tsconfig.json"), "utf8")) as { include: string[] };
  return config.include;
}

/** Whether some source file has no output in dist/ or is newer than it. */
export function distIsStale(): boolean {
  for (const folder of sourceFolders()) {
    for (const entry of readdirSync(join(repo, folder), { recursive: true })) {
      const file = String(entry);
      if (!file.endsWith(".ts") || file.endsWith(".d.ts") || file.endsWith(".test.ts")) continue;
      const output = join(repo, "dist", folder, file.replace(/\.ts$/, ".js"));
      if (!existsSync(output) || statSync(output).mtimeMs < statSync(join(repo, folder, file)).mtimeMs) return true;
    }
  }
  return false;
}

export default function setup(): void {
  if (!distIsStale()) return;
  const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
  // tsc emits even where a part of the project does not type-check yet; `npm test` and CI type-check.
  const run = spawnSync(process.execPath, [tsc, "-p", join(repo, "tsconfig.json")], { cwd: repo, encoding: "utf8" });
  if (distIsStale()) throw new Error(`tsc -p tsconfig.json left dist/ stale (exit ${run.status}):\n${run.stdout}${run.stderr}`);
}
