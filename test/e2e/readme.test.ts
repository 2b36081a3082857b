/**
 * The README is the front door: each of its TypeScript blocks compiles, as a
 * user's program compiles it, against the package as npm installs it, with
 * the tsconfig `pulumi new typescript` writes (strict, no skipLibCheck), on
 * the oldest and newest TypeScript 5 and the TypeScript this repository
 * builds with.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, inject, it } from "vitest";

/** TypeScript versions the README's code must compile with (see the README's Prerequisites). */
const versions = ["5.0.4", "5.9.3", JSON.parse(readFileSync("package.json", "utf8")).devDependencies.typescript as string];

/** The ```ts blocks of the README, in order. */
function typescriptBlocks(): string[] {
  const readme = readFileSync(resolve("README.md"), "utf8");
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The compiler options of the tsconfig.json `pulumi new typescript` writes. */
const pulumiNewTsconfig = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: false,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
};

describe("the README's TypeScript", () => {
  const blocks = typescriptBlocks();

  it("has blocks to compile", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(versions)(
    "compiles under strict with TypeScript %s",
    (version) => {
      const dir = join(inject("e2eRoot"), `readme-ts-${version}`);
      mkdirSync(dir, { recursive: true });
      if (!existsSync(join(dir, "node_modules/typescript"))) {
        writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `readme-ts-${version.replace(/\./g, "-")}`, private: true }));
        // What `pulumi new typescript` installs beside the compiler: Node 18's types.
        execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `typescript@${version}`, "@types/node@18"], {
          cwd: dir,
          stdio: ["ignore", "ignore", "inherit"],
        });
      }
      // Each block is a module of its own (a program's index.ts), beside the installed package.
      const files = blocks.map((code, i) => {
        const name = `block-${i + 1}.ts`;
        writeFileSync(join(dir, name), code.includes("import ") || code.includes("export ") ? code : `${code}\nexport {};\n`);
        return name;
      });
      // TypeScript 6 deprecates moduleResolution "node", which that tsconfig sets: its owner silences it the way TypeScript says to.
      const deprecations = Number(version.split(".")[0]) >= 6 ? { ignoreDeprecations: "6.0" } : {};
      const tsconfig = { compilerOptions: { ...pulumiNewTsconfig.compilerOptions, ...deprecations }, files };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
      const tsc = spawnSync(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit"], {
        cwd: dir,
        encoding: "utf8",
      });
      const errors = `${tsc.stdout}${tsc.stderr}`;
      expect(errors, `tsc ${version}: ${errors}`).toBe("");
      expect(tsc.status).toBe(0);
    },
    180_000,
  );
});
