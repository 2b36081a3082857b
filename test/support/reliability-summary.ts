/**
 * vitest global setup for the reliability suite's figures: each case writes a
 * row (see recordCase), and after all tests the teardown prints one table with
 * cases run, passed, duplicates, orphans, notebooks dropped from the state
 * while live, objects of others taken over, and secret leaks, per suite and
 * per layer: "in-process" (the contract project: the lifecycles and the
 * plugin's gRPC service in the test's process) or "engine" (the real CLI).
 * Every project that runs cases shares one directory, and the last teardown
 * prints the table of all of them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export interface CaseRow {
  suite: string;
  /** The project that ran the case: "in-process" or "engine" (recordCase fills it in). */
  layer?: string;
  name: string;
  passed: boolean;
  duplicates: number;
  orphans: number;
  /** Live objects the stack stopped tracking (refresh or destroy said "gone" while they ran). */
  dropped?: number;
  /** Objects of another stack, resource or person the stack adopted, changed or deleted. */
  taken?: number;
  leaks: number;
}

/**
 * The projects whose teardown has not run yet; the last one prints. vitest
 * loads this module once per project, so the count lives on the process.
 */
const pending = globalThis as { aicpReliabilityProjects?: number };

export default function setup(project: TestProject): () => void {
  const dir = (process.env.AICP_RELIABILITY_DIR ??= mkdtempSync(join(tmpdir(), "aicp-reliability-")));
  mkdirSync(dir, { recursive: true });
  project.provide("reliabilityDir", dir);
  project.provide("reliabilityLayer", project.name === "engine" ? "engine" : "in-process");
  pending.aicpReliabilityProjects = (pending.aicpReliabilityProjects ?? 0) + 1;
  return () => {
    pending.aicpReliabilityProjects! -= 1;
    if (pending.aicpReliabilityProjects! > 0) return;
    delete process.env.AICP_RELIABILITY_DIR;
    const rows: CaseRow[] = readdirSync(dir).flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as CaseRow),
    );
    rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const groups = [...new Set(rows.map((r) => `${r.suite}\t${r.layer ?? "?"}`))].sort().map((g) => g.split("\t") as [string, string]);
    const line = (cells: Array<string | number>) => cells.map((c, i) => String(c).padEnd(i === 0 ? 14 : i === 1 ? 12 : i === 6 ? 19 : 11)).join("");
    const out = ["", "Reliability summary", line(["suite", "layer", "cases", "passed", "duplicates", "orphans", "dropped while live", "taken", "leaks"])];
    for (const [suite, layer] of [...groups, ["total", ""] as [string, string]]) {
      const of = suite === "total" ? rows : rows.filter((r) => r.suite === suite && (r.layer ?? "?") === layer);
      const sum = (k: "duplicates" | "orphans" | "dropped" | "taken" | "leaks") => of.reduce((n, r) => n + (r[k] ?? 0), 0);
      out.push(
        line([suite, layer, of.length, of.filter((r) => r.passed).length, sum("duplicates"), sum("orphans"), sum("dropped"), sum("taken"), sum("leaks")]),
      );
    }
    console.log(out.join("\n"));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityDir: string;
    reliabilityLayer: string;
  }
}
