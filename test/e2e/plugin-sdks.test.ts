/**
 * The generated Python, Go and TypeScript SDKs (sdks/python, sdks/go/aicp,
 * sdks/nodejs) are what
 * Pulumi's own code generators make of schema.json today: regenerated into a
 * temporary folder (scripts/generate-sdks.sh, tools/sdkgen), file for file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const out = mkdtempSync(join(tmpdir(), "aicp-sdks-"));

/** Every file under `dir`, relative, with its text. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter(
        (e) =>
          e.isFile() && !e.parentPath.includes("__pycache__") && !e.parentPath.includes(".egg-info") && !e.parentPath.includes(`${join("python", "build")}`),
      )
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [path.slice(dir.length + 1), readFileSync(path, "utf8")];
      }),
  );
}

describe("the generated SDKs", () => {
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("are not stale: generating them from schema.json changes nothing (bash scripts/generate-sdks.sh)", () => {
    try {
      execFileSync("bash", [join(repo, "scripts/generate-sdks.sh"), out], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      throw new Error(
        "generating the SDKs failed (Go 1.26+ and the Go module proxy build tools/sdkgen): " +
          `${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`,
      );
    }
    expect(tree(join(repo, "sdks/python"))).toEqual(tree(join(out, "python")));
    expect(tree(join(repo, "sdks/go/aicp"))).toEqual(tree(join(out, "go/aicp")));
    expect(tree(join(repo, "sdks/nodejs"))).toEqual(tree(join(out, "nodejs")));
  }, 600_000);
});
