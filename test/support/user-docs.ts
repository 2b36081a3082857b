/**
 * The user's documentation as the tests read it: the README, the front door,
 * and the pages under docs/ it sends users to (docs/reference is generated,
 * and test/unit/reference-docs.test.ts reads it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repo = join(__dirname, "../..");

/** The README first, then the guide pages in the order its "Where to go next" lists them. */
export const userDocPaths = [
  "README.md",
  "docs/resources.md",
  "docs/functions.md",
  "docs/configuration.md",
  "docs/recipes.md",
  "docs/safety.md",
  "docs/guardrails.md",
  "docs/secrets.md",
  "docs/plugin.md",
  "docs/examples.md",
  "docs/troubleshooting.md",
  "docs/unknowns.md",
] as const;

/** One page's text, by its path in the repository. */
export function readDoc(path: string): string {
  return readFileSync(join(repo, path), "utf8");
}

/** Every user page's text, in {@link userDocPaths}' order. */
export function allUserDocs(): string {
  return userDocPaths.map(readDoc).join("\n");
}

/** The fenced code blocks of `text` in `language`, in order. */
export function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);
}

/** The section of `text` that starts at the heading line `heading` and ends at the next heading of its level or above; "" when absent. */
export function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return "";
  const level = /^#+/.exec(heading)![0].length;
  const next = new RegExp(`^#{1,${level}} `, "gm");
  next.lastIndex = start + heading.length;
  const end = next.exec(text)?.index;
  return text.slice(start, end);
}
