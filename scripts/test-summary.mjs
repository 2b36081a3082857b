// The closing line of a test run, from vitest's JSON report and npm test's exit status:
//
//   node scripts/test-summary.mjs test-results/vitest.json <status>
//   -> prints `tests: N passed, M failed` as its last line; exits 0 only when M is 0 and status was 0
//
// The line and the exit code never disagree (.ci/run ends with them). A file that failed in any way
// (a hook that threw, an import that failed) counts as failed even when none of its tests did: vitest
// then reports its tests skipped, not failed. A run that failed with no failed test in its report (a
// check before the tests, or no report at all) counts one failure.
import { existsSync, readFileSync } from "node:fs";

const [report, statusText = "0"] = process.argv.slice(2);
const status = Number(statusText);
let passed = 0;
let failed = 0;
if (report && existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8"));
  const broken = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((t) => t.status === "failed"));
  for (const file of broken) console.log(`failed outside its tests: ${file.name.replace(/.*\/test\//, "test/")}${file.message ? `: ${file.message}` : ""}`);
  passed = r.numPassedTests;
  failed = r.numFailedTests + broken.length;
  // Wall time of the engine project (its files run after the others): first start to last end.
  const engine = r.testResults.filter((f) => /\/test\/(e2e|reliability)\//.test(f.name));
  if (engine.length > 0) {
    const span = (Math.max(...engine.map((f) => f.endTime)) - Math.min(...engine.map((f) => f.startTime))) / 1000;
    console.log(`engine project: ${engine.length} files in ${Math.round(span)} s`);
  }
  const seconds = (f) => Math.round((f.endTime - f.startTime) / 1000);
  const slowest = [...r.testResults].sort((a, b) => seconds(b) - seconds(a)).slice(0, 5);
  console.log(`slowest files: ${slowest.map((f) => `${f.name.replace(/.*\/test\//, "test/")} ${seconds(f)} s`).join(", ")}`);
} else {
  console.log("vitest wrote no report (it failed before running tests)");
}
if (status !== 0 && failed === 0) {
  console.log(`npm test exited ${status} with no failed test in its report`);
  failed = 1;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && status === 0 ? 0 : 1);
