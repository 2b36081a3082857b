/**
 * The docs samples in test/fixtures/docs/ are read by other suites (the
 * emulator must accept them, the client must parse them), so a malformed one
 * would fail far from its cause. This checks only their shape, as described in
 * test/fixtures/docs/README.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const dir = join(__dirname, "..", "fixtures", "docs");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

describe("docs-sample fixtures", () => {
  it("exist", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s is well-formed", (file) => {
    const fixture: unknown = JSON.parse(readFileSync(join(dir, file), "utf8"));
    expect(isRecord(fixture), "a fixture is one JSON object").toBe(true);
    if (!isRecord(fixture)) return;
    expect(fixture.source).toMatch(/^https?:\/\/docs\.coreshub\.cn\/console\/developer\/api\/list\/[a-z_]+\/[a-z_]+$/);
    expect(["GET", "POST", "PUT", "DELETE"]).toContain(fixture.method);
    expect(fixture.path).toMatch(/^\/(qai\/)?aicp\//);
    expect(typeof fixture.operation).toBe("string");
    // The page's "Action" template must produce the sample path.
    expect(typeof fixture.action).toBe("string");
    const template = new RegExp(`^${String(fixture.action).replace(/\{\w+\}/g, "[^/]+")}$`);
    expect(fixture.path).toMatch(template);
    if (fixture.method === "GET") expect(fixture.body, "a GET sample has no body").toBeUndefined();
    if (fixture.query !== undefined) expect(isRecord(fixture.query)).toBe(true);
    if (fixture.body !== undefined) expect(isRecord(fixture.body)).toBe(true);
    expect(isRecord(fixture.response), "response is the envelope object").toBe(true);
    if (!isRecord(fixture.response)) return;
    expect(fixture.response.ret_code).toBe(0);
    expect(fixture.response.message).toBe("success");
    expect("data" in fixture.response).toBe(true);
    if (fixture.truncated !== undefined) expect(typeof fixture.truncated).toBe("string");
    if (fixture.response_fields !== undefined) {
      expect(isRecord(fixture.response_fields)).toBe(true);
      for (const [key, type] of Object.entries(fixture.response_fields as Record<string, unknown>)) {
        expect(key).toMatch(/^(data|tmp_ids)(\.|$)/);
        expect(typeof type).toBe("string");
      }
    }
  });
});
