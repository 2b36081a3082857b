/**
 * The reference pages (docs/reference/, tools/reference/generate.mjs) are
 * what schema.json and the descriptions say today, and the check notices a
 * page that is not: a page copied to another folder with one input's
 * description changed fails it, naming the page.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const check = (env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["tools/reference/generate.mjs", "--check"], { encoding: "utf8", env: { ...process.env, ...env } });

describe("docs/reference", () => {
  it("is not stale: regenerating it changes nothing", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("has a page for every resource and function, each input with its type, default, allowed values and what a change does", () => {
    const notebook = readFileSync("docs/reference/Notebook.md", "utf8");
    // Written out by hand from docs/platform-api.md A4.2 and docs/resources.md's Notebook section, not from the generator.
    expect(notebook).toContain("| `serverType` | string | yes |  | `jupyter`, `code_server`, `rstudio` |  | replaces |");
    expect(notebook).toContain("| `stopTime` | string | no |  |  |  | in place (by setStopTime) |");
    expect(notebook).toContain("| `desiredState` | string | no | `Running` | `Running`, `Stopped` |");
    const index = readFileSync("docs/reference/README.md", "utf8");
    for (const page of ["Notebook", "ResourceGroup", "getTrainingJobs", "getResourceGroups", "getNotebookServers"]) {
      expect(index).toContain(`(${page}.md)`);
    }
  });

  it("fails the check when a page's input description differs from the schema", () => {
    const dir = mkdtempSync(join(tmpdir(), "aicp-reference-"));
    try {
      cpSync("docs/reference", dir, { recursive: true });
      const page = join(dir, "ResourceGroup.md");
      writeFileSync(page, readFileSync(page, "utf8").replace("Resource specification", "Resource spec"));
      const run = check({ AICP_REFERENCE_DIR: dir });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("docs/reference/ResourceGroup.md is stale: run `npm run generate`");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
