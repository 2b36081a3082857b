/**
 * vitest global setup for the reliability suite's figures: each case writes a
 * row (see recordCase), and after all tests the teardown prints one table with
 * cases run, passed, duplicates, orphans, notebooks dropped from the state
 * while live, objects of others taken over, and secret leaks.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export interface CaseRow {
  suite: string;
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

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "aicp-reliability-"));
  mkdirSync(dir, { recursive: true });
  project.provide("reliabilityDir", dir);
  return () => {
    const rows: CaseRow[] = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as CaseRow));
    rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const suites = [...new Set(rows.map((r) => r.suite))];
    const line = (cells: Array<string | number>) => cells.map((c, i) => String(c).padEnd(i === 0 ? 14 : i === 5 ? 19 : 11)).join("");
    const out = ["", "Reliability summary", line(["suite", "cases", "passed", "duplicates", "orphans", "dropped while live", "taken", "leaks"])];
    for (const suite of [...suites, "total"]) {
      const of = suite === "total" ? rows : rows.filter((r) => r.suite === suite);
      const sum = (k: "duplicates" | "orphans" | "dropped" | "taken" | "leaks") => of.reduce((n, r) => n + (r[k] ?? 0), 0);
      out.push(line([suite, of.length, of.filter((r) => r.passed).length, sum("duplicates"), sum("orphans"), sum("dropped"), sum("taken"), sum("leaks")]));
    }
    console.log(out.join("\n"));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityDir: string;
  }
}
