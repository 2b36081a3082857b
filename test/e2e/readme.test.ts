/**
 * The README is the front door: each TypeScript block of it and of the pages
 * it sends users to (test/support/user-docs.ts) compiles, as a
 * user's program compiles it, against the package as npm installs it, with
 * the tsconfig `pulumi new typescript` writes (strict, no skipLibCheck), on
 * the oldest and newest TypeScript 5 and the TypeScript this repository
 * builds with; and the README's TypeScript program, as written, is an
 * `index.ts` that `pulumi up` runs against the emulator through the pulumi
 * CLI and its nodejs language host (the stand-in of tools/language-host/
 * where bootstrap built the CLI).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { allUserDocs, codeBlocks, sectionOf } from "../support/user-docs";

/** TypeScript versions the documentation's code must compile with (see the README's Install). */
const versions = ["5.0.4", "5.9.3", JSON.parse(readFileSync("package.json", "utf8")).devDependencies.typescript as string];

/** The ```ts blocks of the README and the pages it sends users to, in order. */
function typescriptBlocks(): string[] {
  return codeBlocks(allUserDocs(), "ts");
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

describe("the TypeScript of the README and its pages", () => {
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

describe("the README's program, as written, with pulumi up", () => {
  let emulator: Emulator;
  let stack: CliStack | undefined;

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    stack?.project.dispose();
    await emulator?.close();
  });

  it("runs as index.ts, in a project whose package.json names no main", async () => {
    const readme = readFileSync(resolve("README.md"), "utf8");
    const program = codeBlocks(sectionOf(readme, "## A program in each language"), "ts")[0];
    expect(program, "the README's section 'A program in each language' has a ts block").toBeDefined();
    stack = await cliStack("readme-ts", emulator, "");
    const dir = stack.project.dir;
    unlinkSync(join(dir, "index.js"));
    writeFileSync(join(dir, "index.ts"), program!);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "aicp-readme-ts", private: true }));
    const up = await stack.pulumi("up");
    expect(up.status, up.output).toBe(0);
    const outputs = JSON.parse((await stack.pulumi("stack", "output", "--json")).output) as Record<string, unknown>;
    const groups = emulator.listResourceGroups().filter((g) => g.user_id === emulatorCredentials.userId);
    const notebooks = emulator.listNotebooks().filter((n) => n.namespace === emulatorCredentials.userId);
    expect(groups.map((g) => g.rg_id)).toEqual([outputs.groupId]);
    expect(notebooks.map((n) => n.status)).toEqual(["Running"]);
    expect(outputs.notebookUrl).toBe(`/aicp/notebooks/${emulatorCredentials.userId}/${notebooks[0]!.uuid}/ws`);
    expect(outputs.servers).toBe("[secret]");
    expect(typeof outputs.diskUsedBytes).toBe("number");
  }, 120_000);
});
