/**
 * `npm run demo` as a newcomer runs it: twice (the second run changes nothing),
 * then --destroy without AICP_DEMO_PORT (the demo finds the port its up used);
 * and on a port that is taken.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";

const repo = resolve(__dirname, "../..");
const state = mkdtempSync(join(tmpdir(), "aicp-demo-"));

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The demo with AICP_DEMO_PORT set to `port`, or unset. */
function demo(port: number | undefined, ...args: string[]) {
  return demoIn(state, port, ...args);
}

function demoIn(folder: string, port: number | undefined, ...args: string[]) {
  const { AICP_DEMO_PORT: _, ...env } = process.env;
  const run = spawnSync("bash", ["scripts/demo.sh", ...args], {
    cwd: repo,
    env: { ...env, AICP_DEMO_STATE: folder, ...(port === undefined ? {} : { AICP_DEMO_PORT: String(port) }) },
    encoding: "utf8",
    timeout: 240_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe("npm run demo", () => {
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it("deploys the quickstart, changes nothing the second time, and tears down", async () => {
    const port = await freePort();
    const first = demo(port);
    expect(first.status, first.output).toBe(0);
    // The stack, the group, the notebook and the stack's mark (sdk/forward.ts StackMark).
    expect(first.output).toMatch(/\+ 4 created/);
    const printed = /==> 7\/7 Stack outputs\n([\s\S]*?)\nState:/.exec(first.output);
    expect(printed, first.output).not.toBeNull();
    const outputs = JSON.parse(printed![1]!) as Record<string, string>;
    expect(outputs.notebookStatus).toBe("Running");
    expect(outputs.notebookId).toMatch(/^nb-/);

    const second = demo(port);
    expect(second.status, second.output).toBe(0);
    expect(second.output).toMatch(/4 unchanged/);

    // Without AICP_DEMO_PORT: the port the up used, recorded in the demo's state folder.
    const destroyed = demo(undefined, "--destroy");
    expect(destroyed.status, destroyed.output).toBe(0);
    expect(destroyed.output).toContain(`listening on http://127.0.0.1:${port}\n`);
    expect(destroyed.output).toMatch(/- 4 deleted/);
  }, 600_000);

  it("with --python deploys the Python quickstart through the provider plugin, changes nothing the second time, and tears down", async () => {
    const port = await freePort();
    // The archive this run packed already (test/support/package-install.ts), where the demo keeps its own: the demo installs it
    // instead of packing again (scripts/plugin-pack.sh is run by the global setup, the same script).
    mkdirSync(join(state, "plugin"), { recursive: true });
    copyFileSync(inject("pluginArchive"), join(state, "plugin", basename(inject("pluginArchive"))));
    const first = demo(port, "--python");
    expect(first.status, first.output).toBe(0);
    // The stack, the group and the notebook: the plugin keeps its random id in the provider's own state.
    expect(first.output).toMatch(/\+ 3 created/);
    const printed = /==> Stack outputs\n([\s\S]*?)\nState:/.exec(first.output);
    expect(printed, first.output).not.toBeNull();
    const outputs = JSON.parse(printed![1]!) as Record<string, string>;
    expect(outputs).toMatchObject({ notebookStatus: "Running", template: expect.stringMatching(/\(1 x /) });
    expect(outputs.notebookId).toMatch(/^nb-/);

    const second = demo(port, "--python");
    expect(second.status, second.output).toBe(0);
    expect(second.output).toContain("plugin archive pulumi-resource-aicp-v");
    expect(second.output).toMatch(/3 unchanged/);

    const destroyed = demo(undefined, "--python", "--destroy");
    expect(destroyed.status, destroyed.output).toBe(0);
    expect(destroyed.output).toMatch(/- 3 deleted/);
    expect(destroyed.output).toContain(`\nDone: the stack is empty (remove ${state} to forget it).\n`);
    expect(destroyed.output).not.toContain("Run it again");
  }, 600_000);

  it("on a port that is taken, says so and names AICP_DEMO_PORT", async () => {
    const taken = createServer();
    const port = await new Promise<number>((done) => taken.listen(0, "127.0.0.1", () => done((taken.address() as { port: number }).port)));
    const fresh = mkdtempSync(join(tmpdir(), "aicp-demo-taken-"));
    try {
      const run = demoIn(fresh, port, "--python");
      expect(run.status, run.output).toBe(1);
      expect(run.output).toContain(`\nport ${port} is taken: set AICP_DEMO_PORT to a free port, e.g. AICP_DEMO_PORT=${port + 1} npm run demo -- --python\n`);
    } finally {
      taken.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});
