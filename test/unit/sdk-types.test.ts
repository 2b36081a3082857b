/** The SDK's generated types (sdk/types.generated.ts) are what the wire schemas say today. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("sdk/types.generated.ts", () => {
  it("is not stale: regenerating it from sdk/wire-types.ts changes nothing", () => {
    const check = spawnSync(process.execPath, ["tools/sdk-types/generate.mjs", "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("names no zod type, so programs compile the published declarations without zod's", () => {
    const text = readFileSync("sdk/types.generated.ts", "utf8");
    expect(text).not.toMatch(/\bzod\b|\bz\.|import\(/);
    expect(text).toMatch(/export type NotebookBody = \{\n\s+chargeMode: "elastic" \| "monthly";/);
  });
});

describe("docs/plugin.md's table of nested types", () => {
  const page = readFileSync("docs/plugin.md", "utf8");
  const check = (env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["tools/sdk-types/generate.mjs", "--types-table", "--check"], { encoding: "utf8", env: { ...process.env, ...env } });

  it("is what schema.json says: regenerating it changes nothing", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // One row, written out by hand: the name a Python program needs (issue: ImageSecretArgs appeared only in generated code).
    expect(page).toContain(
      "| `aicp:index:ImageSecret` | `aicp.ImageSecret` | `aicp.types.input.ImageSecretArgs`, `aicp.types.output.ImageSecret` | " +
        "`aicp.ImageSecretArgs` (or a dict, `aicp.ImageSecretArgsDict`), `aicp.outputs.ImageSecret` | `aicp.ImageSecretArgs`, `aicp.ImageSecretOutput` |\n",
    );
  });

  it("fails the check when it disagrees with the schema, or is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "aicp-types-table-"));
    try {
      writeFileSync(
        join(dir, "wrong.md"),
        page.replace("`aicp.ReplicaSpecsArgs`, `aicp.ReplicaSpecsOutput`", "`aicp.ReplicaSpecArgs`, `aicp.ReplicaSpecsOutput`"),
      );
      const wrong = check({ AICP_TYPES_TABLE_PAGE: join(dir, "wrong.md") });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain("wrong.md is stale: run `npm run generate`");
      writeFileSync(join(dir, "none.md"), "# no table\n");
      const none = check({ AICP_TYPES_TABLE_PAGE: join(dir, "none.md") });
      expect(none.status).toBe(1);
      expect(none.stderr).toContain("none.md lacks the table's markers");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names only types the generated SDKs declare", () => {
    const sdk = {
      nodejs: readFileSync("sdks/nodejs/types/input.ts", "utf8") + readFileSync("sdks/nodejs/types/output.ts", "utf8"),
      python: readFileSync("sdks/python/pulumi_aicp/_inputs.py", "utf8") + readFileSync("sdks/python/pulumi_aicp/outputs.py", "utf8"),
      go: readFileSync("sdks/go/aicp/pulumiTypes.go", "utf8"),
    };
    const rows = [...page.matchAll(/^\| `aicp:index:(\w+)` \|.*$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [row] of rows) {
      for (const [, name] of row.matchAll(/`aicp\.types\.(?:input|output)\.(\w+)`/g)) expect(sdk.nodejs).toContain(`export interface ${name} {`);
      for (const [, name] of row.matchAll(/`aicp\.(\w+Args(?:Dict)?)`/g))
        expect(sdk.python + sdk.go).toMatch(new RegExp(`(class ${name}\\b|type ${name} struct)`));
      for (const [, name] of row.matchAll(/`aicp\.outputs\.(\w+)`/g)) expect(sdk.python).toContain(`class ${name}(dict):`);
      for (const [, name] of row.matchAll(/`aicp\.(\w+Output)`/g)) expect(sdk.go).toContain(`type ${name} struct`);
    }
  });
});
