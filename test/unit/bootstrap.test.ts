/**
 * scripts/bootstrap.sh writes only under the repository: with a `pulumi` found on PATH in a folder
 * of someone else's (a developer's real installation, writable), it leaves that folder's files
 * byte-identical and puts the engine's plugin scripts on PATH instead.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const pinnedPulumi = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).devDependencies["@pulumi/pulumi"] as string;

function digest(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash("sha256")
        .update(readFileSync(join(dir, f)))
        .digest("hex"),
    ]),
  );
}

describe("bootstrap with a pulumi of someone else's on PATH", () => {
  const theirs = mkdtempSync(join(tmpdir(), "aicp-their-pulumi-"));
  afterAll(() => rmSync(theirs, { recursive: true, force: true }));

  it("leaves that folder byte-identical, and finds the plugin scripts on PATH", () => {
    // Their CLI (it only answers `version`, at the pinned release) with older plugin scripts beside it.
    writeFileSync(join(theirs, "pulumi"), `#!/bin/sh\n[ "$1" = version ] && echo v${pinnedPulumi}\n`);
    writeFileSync(join(theirs, "pulumi-resource-pulumi-nodejs"), "#!/bin/sh\necho their own dynamic-provider script\n");
    writeFileSync(join(theirs, "pulumi-language-nodejs"), "#!/bin/sh\necho their own language host\n");
    for (const f of readdirSync(theirs)) chmodSync(join(theirs, f), 0o755);
    const before = digest(theirs);

    const run = spawnSync(
      "bash",
      [
        "-c",
        ". scripts/bootstrap.sh && echo PULUMI=$AICP_PULUMI && " +
          "echo SCRIPT=$(command -v pulumi-resource-pulumi-nodejs) && echo POLICY=$(command -v pulumi-analyzer-policy)",
      ],
      { cwd: repo, encoding: "utf8", env: { ...process.env, AICP_BOOTSTRAP: "pulumi", PATH: `${theirs}:${process.env.PATH}` } },
    );
    expect(run.stderr).not.toMatch(/error/);
    expect(run.status).toBe(0);
    expect(digest(theirs)).toEqual(before);
    expect(readdirSync(theirs).sort()).toEqual(["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]);
    expect(run.stdout).toContain(`PULUMI=${theirs}/pulumi\n`);
    expect(run.stdout).toContain(`SCRIPT=${repo}/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs\n`);
    expect(run.stdout).toMatch(new RegExp(`POLICY=${repo}/(node_modules/@pulumi/pulumi|tools/policy)/pulumi-analyzer-policy\\n`));
  });
});
