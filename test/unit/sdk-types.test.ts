/** The SDK's generated types (sdk/types.generated.ts) are what the wire schemas say today. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
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
