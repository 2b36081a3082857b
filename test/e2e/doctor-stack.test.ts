/**
 * `pulumi-aicp doctor --stack <name>` reads the stack's aicp:* configuration
 * through the pulumi CLI (the secret key decrypted), with no environment
 * variable to fall back on.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, type CliProject } from "../support/cli-project";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

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
});
