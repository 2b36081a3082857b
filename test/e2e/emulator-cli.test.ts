/**
 * The emulator's command line as a user starts it (`npm run emulator`): the compiled command in a
 * process of its own. In the engine project because it runs what `npm test` built (dist/), as the
 * other tests of built commands do; `npm run test:fast` then needs no build.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { signedRequest } from "../support/signed-request";

const root = join(__dirname, "..", "..");

describe("command line", () => {
  it("prints its listening line, serves requests in the --dialect given and exits on SIGTERM", async () => {
    const cli = join(root, "dist", "emulator", "cli.js");
    expect(existsSync(cli), "dist/emulator/cli.js: run npm run build first").toBe(true);

    const child = spawn(
      process.execPath,
      [
        cli,
        "--port",
        "0",
        "--access-key-id",
        "AKIDCLI",
        "--secret-access-key",
        "cli-secret",
        "--user-id",
        "usr-cli",
        "--dialect",
        "prefixes=both,counts=total",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    // However the test ends (the runner's timeout included), the emulator does not outlive it.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    // No deadline of our own: how fast the machine starts node is not what this checks.
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const nl = out.indexOf("\n");
        if (nl >= 0) resolve(out.slice(0, nl));
      });
      child.on("exit", (code) => reject(new Error(`cli exited with ${code}`)));
    });
    try {
      expect(line).toMatch(/^AICP emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.slice("AICP emulator listening on ".length);
      const r = await signedRequest(url, {
        method: "GET",
        path: "/aicp/resource/template",
        query: { zone: "xb3" },
        accessKeyId: "AKIDCLI",
        secretAccessKey: "cli-secret",
      });
      expect(r.json.meta.X_REQUEST_USER).toBe("usr-cli");
      expect(r.json.total_sum).toBe(24);
      // --dialect took effect: both prefixes served, counts is the total.
      expect(r.json.counts).toBe(24);
      const qai = await signedRequest(url, {
        method: "GET",
        path: "/qai/aicp/resource/template",
        query: { zone: "xb3" },
        accessKeyId: "AKIDCLI",
        secretAccessKey: "cli-secret",
      });
      expect(qai.status).toBe(200);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
