/**
 * A function's file and its registry line go together (CONTRIBUTING, "Adding
 * a data-source function"): a file in functions/ that the registry does not
 * name would be served by no front, and nothing else would say so.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { functionRegistry } from "../../functions";

describe("the registry of functions (functions/index.ts)", () => {
  it("names every function file of functions/, each under the name its file declares", () => {
    const files = readdirSync("functions")
      .filter((f) => f.startsWith("get-") && f.endsWith(".ts"))
      .map((f) => f.slice(0, -3).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()))
      .sort();
    expect(Object.keys(functionRegistry).sort()).toEqual(files);
    for (const [name, fn] of Object.entries(functionRegistry)) expect(fn.name).toBe(name);
  });
});
