/**
 * Mutation testing (StrykerJS, `npm run mutation`) of the safety-critical
 * modules, with the fast suite (vitest.stryker.config.mts: unit, contract and
 * emulator tests; no engine, no Python). CONTRIBUTING.md, "Mutation testing",
 * has the score and the mutants left alive.
 *
 * Where only part of a file is safety-critical (the diff functions, the
 * redaction of client/errors.ts), the lines are found by the function's
 * name when stryker starts, so the range follows edits of the file.
 */
import { readFileSync } from "node:fs";

/**
 * "file:first-last" covering the named top-level declarations of `file`:
 * each from its `function name(` / `const name =` line to the next line that
 * closes a top-level block (`}` or `};` at column 0), or its own line when it
 * is one statement.
 */
function linesOf(file, ...names) {
  const lines = readFileSync(new URL(file, import.meta.url), "utf8").split("\n");
  return names.map((name) => {
    const start = lines.findIndex((l) => new RegExp(`^(export )?(async )?(function|const) ${name}\\b`).test(l));
    if (start < 0) throw new Error(`stryker.config.mjs: ${file} declares no ${name}; update the mutate list`);
    const oneLine = lines[start].trimEnd().endsWith(";");
    const end = oneLine ? start : lines.findIndex((l, i) => i > start && /^\};?$/.test(l));
    return `${file}:${start + 1}-${end + 1}`;
  });
}

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.mts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  concurrency: 2,
  // A mutant that makes a poll loop spin is a timeout (counted as detected); the polls themselves wait real time.
  timeoutMS: 20_000,
  mutate: [
    // Paging.
    "client/paging.ts",
    // Signing.
    "client/signature.ts",
    // Redaction.
    ...linesOf("client/errors.ts", "rememberSecret", "redact"),
    "provider/secrets.ts",
    // The create-once path.
    "provider/create-once.ts",
    "provider/name-holders.ts",
    "provider/create-journal.ts",
    // Ownership and marks.
    "provider/ownership.ts",
    "provider/stack-mark.ts",
    "plugin/identity.ts",
    "provider/identity.ts",
    // Absence confirmation.
    "provider/notebook/listing.ts",
    "provider/resource-group/lookup.ts",
    "provider/resource-group/delete.ts",
    // Diff.
    ...linesOf("provider/notebook/preview.ts", "diff"),
    ...linesOf("provider/notebook/times.ts", "sameInstant"),
    ...linesOf("provider/notebook/diff.ts", "coversSubset", "holdsValue", "programHadSet", "diffNotebook", "sameImageSecret"),
    ...linesOf("provider/resource-group/preview.ts", "diff", "plannedGroupDiff", "diffGroup"),
    ...linesOf("provider/inputs.ts", "sameValue", "changedKeys"),
  ],
  ignorePatterns: [".cache", "dist-plugin", "dist-sdk", "sdks/python", "sdks/go", "bench/results", "test-results", "reports"],
  tempDirName: ".stryker-tmp",
  // Reruns only the mutants whose code or covering tests changed since the last run (reports/ is not committed).
  incremental: true,
  incrementalFile: "reports/mutation/incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
};
