/** Persistence across a restart on the same port, and the command line. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { signedRequest } from "../support/signed-request";
import { client } from "./client";

const root = join(__dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "aicp-emulator-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("persistence", () => {
  it("keeps groups, templates, notebooks and jobs across a restart on the same port", async () => {
    const stateFile = join(dir, "state.json");
    const first = await startEmulator({ stateFile, notebookReadyDelayMs: 50 });
    const port = first.port;
    const a = client(first);
    const group = await a.post("/resource/resource_group", { name: "kept", description: "", sku_id: "s", pod_type: ["job"], customize_enable: 1 });
    const tmpl = await a.post("/resource/template", {
      name: "kept-tmpl",
      cpu: 1,
      memory: 1,
      gpu: 0,
      rg_id: "rg-publiccpu001",
      rg_node_id: "n1",
      pod_type: ["job"],
      spec_type: "only_cpu",
    });
    const nb = await a.post("/notebooks/namespaces/usr-emulator/create", {
      charge_mode: "monthly",
      duration: 2,
      user_id: "usr-emulator",
      namespace: "usr-emulator",
      image: "img",
      image_type: "user",
      name: "kept-nb",
      server_type: "rstudio",
      replica_specs: { replicas: 1 },
    });
    await a.post("/trains/namespaces/usr-emulator/create", {
      charge_mode: "elastic",
      duration: 3600,
      name: "kept-job",
      endpoint: "tfjobs",
      image: "tf",
      image_type: "official",
      replica_specs: [{ replica_type: "Worker", replicas: 1 }],
    });
    await first.close();
    expect(readdirSync(dir)).toEqual(["state.json"]); // the temp file was renamed away

    const second: Emulator = await startEmulator({ stateFile, port, notebookReadyDelayMs: 50 });
    try {
      expect(second.port).toBe(port);
      const b = client(second);
      const got = await b.get(`/resource/resource_group/${group.json.data.rg_id}`);
      expect(got.json.data.name).toBe("kept");
      const t = await b.get("/resource/template", { template_ids: tmpl.json.data.tmp_ids, spec_type: "only_cpu" });
      expect(t.json.data[0].name).toBe("kept-tmpl");
      second.clock.advance(50); // past the ready delay
      const nbs = await b.get("/notebooks/namespaces/usr-emulator/notebooks");
      expect(nbs.json.data[0]).toMatchObject({ uuid: nb.json.data[0].uuid, status: "Running", servers: [{ target_port: 8787 }] });
      const pods = await b.get("/trains/namespaces/usr-emulator/endpoints/tfjobs/trains/kept-job/pods");
      expect(pods.json.counts).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe("command line", () => {
  it("prints its listening line, serves requests in the --dialect given and exits on SIGTERM", async () => {
    const cli = join(root, "dist", "emulator", "cli.js");
    // Compiled by test/support/compiled.ts before any test runs.
    expect(existsSync(cli)).toBe(true);

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
