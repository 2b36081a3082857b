/**
 * Every command the README tells a user to run is run by a test or by CI
 * (issue 45): each line of its `sh` blocks, and each command written inline,
 * is listed below with the file that runs it and a text of that file that
 * shows it does. A command added to the README without a test that runs it
 * fails here, naming it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeBlocks, readDoc } from "../support/user-docs";

const repo = join(__dirname, "../..");

/** The Configure block's lines, which test/e2e/doctor-stack.test.ts runs as written (its placeholders replaced). */
const configureLines = [
  "pulumi config set aicp:accessKeyId AKID...",
  "pulumi config set --secret aicp:secretAccessKey ...",
  "pulumi config set aicp:userId usr-abc123",
  "pulumi config set aicp:zone xb3",
  'pulumi config set aicp:stackMark "s2-$(openssl rand -hex 16)"',
];

/** A rule that matches these lines and nothing else. */
const exactly = (lines: string[]) => new RegExp(`^(${lines.map((line) => line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`);

/** Which file runs a README command, and what in that file shows it. */
const runBy: Array<{ command: RegExp; file: string; shows: string }> = [
  { command: /^npm run demo( -- --destroy| -- --python)?$/, file: "test/e2e/demo.test.ts", shows: '"--python"' },
  { command: /^npm run demo$/, file: "test/e2e/demo.test.ts", shows: '"--destroy"' },
  { command: /^npm test$/, file: ".ci/run", shows: "\nnpm test\n" },
  { command: /^npm ci && npm run build && npm pack$/, file: ".ci/run", shows: "npm ci --no-audit" },
  { command: /^npm ci && npm run build && npm pack$/, file: "test/support/package-install.ts", shows: '"pack", "--json"' },
  { command: /^npm install \/path\/to\/pulumi-aicp-<version>\.tgz @pulumi\/pulumi$/, file: "test/support/package-install.ts", shows: '"@pulumi/pulumi"' },
  { command: /^bash scripts\/plugin-executable\.sh$/, file: "test/e2e/plugin-executable.test.ts", shows: "scripts/plugin-executable.sh" },
  {
    command: /^pulumi plugin install resource aicp 0\.1\.0 --file dist-plugin\/pulumi-resource-aicp-v0\.1\.0-linux-amd64\.tar\.gz$/,
    file: "test/support/plugin-project.ts",
    shows: '"plugin", "install", "resource", "aicp"',
  },
  { command: exactly(configureLines), file: "test/e2e/doctor-stack.test.ts", shows: '"## Configure"' },
  { command: /^npx pulumi-aicp doctor --stack dev$/, file: "test/e2e/doctor-stack.test.ts", shows: '"## Configure"' },
  { command: /^pulumi up$/, file: "test/e2e/readme.test.ts", shows: 'stack.pulumi("up")' },
  { command: /^pulumi import$/, file: "test/e2e/plugin-typescript.test.ts", shows: '"import"' },
  { command: /^pip install pulumi==3\.259\.0 \.\/sdks\/python$/, file: "scripts/python-sdk.sh", shows: '"$root/sdks/python"' },
];

/** The README's commands: each line of its `sh` blocks without its comment, and each inline code span that starts with a command. */
function readmeCommands(): string[] {
  const readme = readDoc("README.md");
  const blockLines = codeBlocks(readme, "sh").flatMap((block) => block.split("\n"));
  const inline = [...readme.matchAll(/`((?:npm|npx|pulumi|bash|pip|go) [^`]+)`/g)].map((m) => m[1]!);
  return [...blockLines, ...inline]
    .map((line) =>
      line
        .replace(/\s+#.*$/, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((line) => line !== "");
}

describe("every command in the README", () => {
  const commands = readmeCommands();

  it("is found (the README has commands to check)", () => {
    expect(commands).toContain("npm test");
    expect(commands.length).toBeGreaterThanOrEqual(10);
  });

  it.each(commands)("%s: is run by a test or by CI", (command) => {
    const runners = runBy.filter((r) => r.command.test(command));
    expect(
      runners.map((r) => r.file),
      `no test or CI stage runs \`${command}\`: add one, and list it in test/unit/readme-commands.test.ts`,
    ).not.toEqual([]);
    for (const { file, shows } of runners) expect(readFileSync(join(repo, file), "utf8"), `${file} runs \`${command}\``).toContain(shows);
  });
});
