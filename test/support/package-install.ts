/**
 * vitest global setup: packs this package (as `npm pack` would publish it) and
 * installs the tarball with @pulumi/pulumi (and @pulumi/policy) into a temp folder outside the
 * repository, the way a user's project gets it. End-to-end programs live in
 * sub-folders of it, so one copy of @pulumi/pulumi serves program, package and
 * the dynamic-provider process. It also packs the provider plugin's archive
 * once (scripts/plugin-pack.sh), which every plugin test installs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

const repo = resolve(__dirname, "../..");

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), "aicp-e2e-"));
  const pack = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", root], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
  ) as Array<{ filename: string }>;
  const tarball = join(root, pack[0]!.filename);
  const { devDependencies } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  // As a user installs them (README): @pulumi/policy beside the package runs its guardrails pack (node_modules/pulumi-aicp/policy/pack).
  const dependencies = {
    "pulumi-aicp": `file:${tarball}`,
    "@pulumi/pulumi": devDependencies["@pulumi/pulumi"],
    "@pulumi/policy": devDependencies["@pulumi/policy"],
  };
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "aicp-e2e-programs", private: true, dependencies }, null, 2));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const archive = execFileSync("bash", [join(repo, "scripts/plugin-pack.sh"), join(root, "plugin")], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  project.provide("pluginArchive", archive.trim().split("\n").pop()!);
  project.provide("e2eRoot", root);
  project.provide("packedFiles", readdirSync(root));
  return () => rmSync(root, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eRoot: string;
    packedFiles: string[];
    /** The plugin archive `pulumi plugin install resource aicp <version> --file` takes. */
    pluginArchive: string;
  }
}
