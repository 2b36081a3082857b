/** Persistence across a restart on the same port (the command line: test/e2e/emulator-cli.test.ts). */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { client } from "./client";

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
