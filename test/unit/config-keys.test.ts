/** The configuration keys as client/config-keys.ts describes them (and the plugin's schema declares them) against docs/configuration.md's table. */
import { describe, expect, it } from "vitest";
import { configKeys } from "../../client/config";
import { readDoc } from "../support/user-docs";

/** docs/configuration.md's rows of configuration keys: key, whether it is marked secret, environment variable, default. */
function readmeRows() {
  return readDoc("docs/configuration.md")
    .split("\n")
    .filter((line) => line.startsWith("| `aicp:"))
    .map((line) => {
      const [keyCell = "", envCell = "", defaultCell = ""] = line
        .split("|")
        .slice(1)
        .map((cell) => cell.trim());
      return {
        key: /`(aicp:[A-Za-z]+)`/.exec(keyCell)?.[1],
        secret: keyCell.includes("(secret)"),
        env: envCell.replace(/`/g, ""),
        default: /^`.*`$/.test(defaultCell) ? defaultCell.slice(1, -1) : undefined,
      };
    });
}

describe("the configuration keys", () => {
  it("are docs/configuration.md's table, each with its variable, default and secrecy", () => {
    const described = Object.values(configKeys).map((entry) => ({
      key: entry.key,
      secret: "secret" in entry,
      // A key without a variable (one that must differ between stacks) shows a dash.
      env: "env" in entry ? entry.env : "—",
      default: "default" in entry ? entry.default : undefined,
    }));
    const byKey = (a: { key?: string }, b: { key?: string }) => String(a.key).localeCompare(String(b.key));
    expect(readmeRows().sort(byKey)).toEqual(described.sort(byKey));
  });
});
