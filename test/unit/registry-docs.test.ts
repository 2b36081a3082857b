/**
 * The pages the Pulumi registry reads (docs/_index.md,
 * docs/installation-configuration.md) say what the tested README, the
 * tested docs/plugin.md and the schema say: each example is one of their
 * programs, which the engine tests compile and run (readme.test.ts,
 * plugin-automation.test.ts); the configuration table is
 * docs/configuration.md's, which config-keys.test.ts checks
 * against the provider's keys; the plugin's download URL and the Go import
 * path are the schema's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = join(__dirname, "../..");
const read = (file: string) => readFileSync(join(repo, file), "utf8");
const readme = read("README.md");
const pluginPage = read("docs/plugin.md");
const configurationPage = read("docs/configuration.md");
const index = read("docs/_index.md");
const installation = read("docs/installation-configuration.md");
const schema = JSON.parse(read("schema.json")) as { pluginDownloadURL: string; language: { go: { importBasePath: string } } };

/** Fenced code blocks of `text` in `lang`. */
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);

describe("the registry's pages", () => {
  it("carry the front matter the registry reads", () => {
    for (const [page, title] of [
      [index, "AICP"],
      [installation, "AICP Installation & Configuration"],
    ] as const) {
      expect(page).toMatch(new RegExp(`^---\\ntitle: ${title}\\nmeta_desc: .+\\nlayout: package\\n---\\n`));
    }
  });

  it("show an example in each language, each one of the README's tested examples", () => {
    const plugin = `${readme.slice(readme.indexOf("## A program in each language"))}\n${pluginPage}`;
    for (const lang of ["typescript", "python", "go", "yaml"]) {
      const [example] = blocks(index, lang);
      expect(example, `docs/_index.md has a ${lang} example`).toBeDefined();
      expect(blocks(plugin, lang), `docs/_index.md's ${lang} example is the README's or docs/plugin.md's`).toContain(example);
    }
  });

  it("give docs/configuration.md's table, the schema's download URL and Go import path", () => {
    const table = (text: string) => text.slice(text.indexOf("| Key | Environment | Default | Meaning |")).split("\n\n")[0];
    expect(table(installation)).toBe(table(configurationPage));
    expect(installation).toContain(`--server ${schema.pluginDownloadURL.replace("${VERSION}", "<version>")}`);
    expect(installation).toContain(`\`${schema.language.go.importBasePath}\``);
  });
});
