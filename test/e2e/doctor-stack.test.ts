/**
 * `pulumi-aicp doctor --stack <name>` reads the stack's aicp:* configuration
 * through the pulumi CLI (the secret key decrypted), with no environment
 * variable to fall back on; and the README's "Configure" block, run line by
 * line as a user runs it (test/unit/readme-commands.test.ts lists it here).
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { codeBlocks, readDoc, sectionOf } from "../support/user-docs";

describe("doctor --stack", () => {
  let emulator: Emulator;
  let project: CliProject;
  const cli = resolve(__dirname, "../../dist/cli/index.js");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // Blank fallbacks: only the stack's configuration may reach the doctor.
    project = cliProject("doctor", emulator, "", { AICP_BASE_URL: "", QY_ACCESS_KEY_ID: "", QY_SECRET_ACCESS_KEY: "", CORESHUB_USER_ID: "", AICP_ZONE: "" });
    expect((await project.run("pulumi", "login", project.env().PULUMI_BACKEND_URL!)).status).toBe(0);
    expect((await project.run("pulumi", "stack", "init", "ci")).status).toBe(0);
    for (const [key, value, secret] of [
      ["aicp:baseUrl", emulator.url, false],
      ["aicp:accessKeyId", emulatorCredentials.accessKeyId, false],
      ["aicp:secretAccessKey", emulatorCredentials.secretAccessKey, true],
      ["aicp:userId", emulatorCredentials.userId, false],
      ["aicp:zone", "xb3", false],
    ] as const) {
      expect((await project.run("pulumi", "config", "set", ...(secret ? ["--secret"] : []), key, value)).status).toBe(0);
    }
  }, 120_000);
  afterAll(async () => {
    project?.dispose();
    await emulator?.close();
  });

  it("checks the platform with the stack's configuration and never prints the secret", async () => {
    const run = await project.run(process.execPath, cli, "doctor", "--stack", "ci");
    expect(run.output).toMatch(/^ok\s+credentials\s+accepted/m);
    expect(run.output).toMatch(/^ok\s+zone\s+xb3 accepted/m);
    expect(run.output).not.toContain(emulatorCredentials.secretAccessKey);
    expect(run.status).toBe(0);
  }, 120_000);

  it("says in one line that a stack does not exist", async () => {
    const run = await project.run(process.execPath, cli, "doctor", "--stack", "nope");
    expect(run.status).toBe(2);
    expect(run.output.trim().split("\n")).toEqual([expect.stringMatching(/^doctor: could not read the configuration of stack 'nope' with the pulumi CLI/)]);
  }, 120_000);

  it("the README's Configure block, run as written with this account's values, configures a stack the doctor accepts", async () => {
    const block = codeBlocks(sectionOf(readDoc("README.md"), "## Configure"), "sh")[0];
    expect(block, "the README's Configure section has a sh block").toBeDefined();
    // The README's placeholders, replaced by the emulator's account; the package's CLI as this repository built it.
    const lines = block!
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) =>
        line
          .replace("aicp:accessKeyId AKID...", `aicp:accessKeyId ${emulatorCredentials.accessKeyId}`)
          .replace("aicp:secretAccessKey ...", `aicp:secretAccessKey ${emulatorCredentials.secretAccessKey}`)
          .replace("usr-abc123", emulatorCredentials.userId)
          .replace("npx pulumi-aicp", `${process.execPath} ${cli}`),
      );
    expect(lines.filter((line) => line.includes("..."))).toEqual([]);
    expect((await project.run("pulumi", "stack", "init", "dev")).status).toBe(0);
    // Not in the README: the platform's address is the default there, the emulator's here.
    expect((await project.run("pulumi", "config", "set", "--stack", "dev", "aicp:baseUrl", emulator.url)).status).toBe(0);
    let doctor = { status: null as number | null, output: "" };
    for (const line of lines) {
      // As in a user's shell after `pulumi stack init dev` (the helper's environment selects stack ci).
      const run = await project.run("env", "PULUMI_STACK=dev", "bash", "-c", line);
      expect(run.status, `${line}\n${run.output}`).toBe(0);
      doctor = run;
    }
    expect(doctor.output).toMatch(/^ok\s+credentials\s+accepted/m);
    expect(doctor.output).toMatch(/^ok\s+zone\s+xb3 accepted/m);
    const mark = await project.run("pulumi", "config", "get", "--stack", "dev", "aicp:stackMark");
    expect(mark.output.trim()).toMatch(/^s2-[0-9a-f]{32}$/);
  }, 120_000);
});
