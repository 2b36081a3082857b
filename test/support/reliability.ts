/** Recording one reliability case for the summary table (see reliability-summary.ts). */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { CaseRow } from "./reliability-summary";

export function recordCase(row: CaseRow): void {
  appendFileSync(join(inject("reliabilityDir"), `${row.suite}-${process.pid}.jsonl`), JSON.stringify({ layer: inject("reliabilityLayer"), ...row }) + "\n");
}

/** What a case counts: what the scenario would cost a user (see CaseRow). */
export type CaseCounts = Pick<CaseRow, "duplicates" | "orphans" | "leaks"> & Required<Pick<CaseRow, "dropped" | "taken">>;

/** Runs one case and records its row, whatever happens; `body` fills in what it counted. */
export async function reliabilityCase(suite: string, name: string, body: (row: CaseCounts) => Promise<void>): Promise<void> {
  const row: CaseCounts = { duplicates: 0, orphans: 0, dropped: 0, taken: 0, leaks: 0 };
  let passed = false;
  try {
    await body(row);
    passed = true;
  } finally {
    recordCase({ suite, name, passed, ...row });
  }
}
