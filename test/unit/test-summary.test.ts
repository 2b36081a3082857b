/**
 * The closing line of a CI run (scripts/test-summary.mjs) tells the truth: a file that failed outside
 * its tests counts as failed, and the line and the exit code never disagree. The reports are shaped as
 * vitest's JSON reporter writes them (a file whose beforeAll threw: status "failed", its tests "skipped").
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "aicp-summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FileResult {
  name: string;
  status: "passed" | "failed";
  tests: Array<"passed" | "failed" | "skipped">;
}

function summary(files: FileResult[] | undefined, status: number): { line: string; exit: number | null } {
  const report = join(dir, `report-${Math.random()}.json`);
  if (files) {
    const count = (state: string) => files.flatMap((f) => f.tests).filter((t) => t === state).length;
    const testResults = files.map((f) => ({
      name: `/repo/test/unit/${f.name}`,
      status: f.status,
      message: "",
      startTime: 1000,
      endTime: 3000,
      assertionResults: f.tests.map((state) => ({ status: state })),
    }));
    writeFileSync(report, JSON.stringify({ numPassedTests: count("passed"), numFailedTests: count("failed"), numPendingTests: count("skipped"), testResults }));
  }
  const run = spawnSync(process.execPath, ["scripts/test-summary.mjs", report, String(status)], { encoding: "utf8" });
  return { line: run.stdout.trim().split("\n").pop()!, exit: run.status };
}

describe("the closing line", () => {
  it("counts a file whose beforeAll threw (its tests skipped) as failed, and exits 1", () => {
    const files: FileResult[] = [
      { name: "fine.test.ts", status: "passed", tests: ["passed", "passed"] },
      { name: "broken.test.ts", status: "failed", tests: ["skipped", "skipped"] },
    ];
    expect(summary(files, 1)).toEqual({ line: "tests: 2 passed, 1 failed", exit: 1 });
  });

  it("counts a failed file's failed tests once, not the file again", () => {
    const files: FileResult[] = [{ name: "red.test.ts", status: "failed", tests: ["failed", "passed", "failed"] }];
    expect(summary(files, 1)).toEqual({ line: "tests: 1 passed, 2 failed", exit: 1 });
  });

  it("exits 1 when it counts a failure though the runner exited 0", () => {
    expect(summary([{ name: "broken.test.ts", status: "failed", tests: [] }], 0)).toEqual({ line: "tests: 0 passed, 1 failed", exit: 1 });
  });

  it("counts one failure when the run failed with none in its report, or wrote none", () => {
    expect(summary([{ name: "fine.test.ts", status: "passed", tests: ["passed"] }], 2)).toEqual({ line: "tests: 1 passed, 1 failed", exit: 1 });
    expect(summary(undefined, 1)).toEqual({ line: "tests: 0 passed, 1 failed", exit: 1 });
  });

  it("passes a green run", () => {
    expect(summary([{ name: "fine.test.ts", status: "passed", tests: ["passed", "passed", "passed"] }], 0)).toEqual({
      line: "tests: 3 passed, 0 failed",
      exit: 0,
    });
  });
});
