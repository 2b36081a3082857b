/** Recording one reliability case for the summary table (see reliability-summary.ts). */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { CaseRow } from "./reliability-summary";

export function recordCase(row: CaseRow): void {
  appendFileSync(join(inject("reliabilityDir"), `${row.suite}-${process.pid}.jsonl`), JSON.stringify(row) + "\n");
}
