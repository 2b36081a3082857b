/**
 * The provider plugin's two forms, side by side (BENCH_ONLY=plugin): the
 * archive of the Node.js application with its launcher (scripts/plugin-pack.sh,
 * needs Node 22.19+ on PATH) and the self-contained executable
 * (scripts/plugin-executable.sh). For each: the archive's size, its size
 * unpacked, and the time from starting the plugin to the port it prints,
 * which is what the engine waits for (runs interleaved).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo, spread } from "./lib";

/** Bytes under `path`, files only. */
function bytesUnder(path: string): number {
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** Milliseconds from spawning `command` to its first line of output (the plugin's port). */
function timeToPort(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, [], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.once("data", () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.once("error", reject);
  });
}

/** The plugin's forms: size and start-up, `runs` interleaved starts each. */
export async function pluginForms(runs: number) {
  const work = mkdtempSync(join(tmpdir(), "aicp-bench-plugin-"));
  try {
    const build = (script: string) =>
      execFileSync("bash", [join(repo, "scripts", script), join(work, script)], { encoding: "utf8" })
        .trim()
        .split("\n")
        .pop()!;
    const forms = { nodeApplication: build("plugin-pack.sh"), singleExecutable: build("plugin-executable.sh") };
    const unpacked: Record<string, string> = {};
    for (const [name, archive] of Object.entries(forms)) {
      unpacked[name] = join(work, `unpacked-${name}`);
      mkdirSync(unpacked[name]);
      execFileSync("tar", ["-xzf", archive, "-C", unpacked[name]]);
    }
    const starts: Record<string, number[]> = { nodeApplication: [], singleExecutable: [] };
    for (let run = 0; run < runs; run++) {
      for (const name of Object.keys(forms)) starts[name]!.push(await timeToPort(join(unpacked[name]!, "pulumi-resource-aicp")));
    }
    return Object.fromEntries(
      Object.entries(forms).map(([name, archive]) => [
        name,
        { archiveBytes: statSync(archive).size, unpackedBytes: bytesUnder(unpacked[name]!), startToPortMs: spread(starts[name]!.map((ms) => Math.round(ms))) },
      ]),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Prints the forms as the README quotes them. */
export function printPluginForms(forms: Awaited<ReturnType<typeof pluginForms>>): void {
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log("\nPlugin forms: archive MB, unpacked MB, start to port ms median (min-max)");
  for (const [name, f] of Object.entries(forms)) {
    const start = `${f.startToPortMs.median} (${f.startToPortMs.min}-${f.startToPortMs.max})`;
    console.log(`${name.padEnd(18)}${mb(f.archiveBytes).padEnd(8)}${mb(f.unpackedBytes).padEnd(8)}${start}`);
  }
}
