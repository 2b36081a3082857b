/** The five spec operations and the catalogue/group operations, checked field by field. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../emulator";
import { type Query, client } from "./client";

let emu: Emulator;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  emu = await startEmulator({ notebookReadyDelayMs: 50 });
  api = client(emu);
});
afterAll(() => emu.close());

const get = (path: string, query?: Query) => api.get(path, query);
const post = (path: string, body: unknown, method = "POST") => api.post(path, body, method);

describe("list resource templates (platform-api A4.5)", () => {
  it("returns common templates by default with every platform-api A2.4 field, total_sum = total, counts = page length", async () => {
    const r = await get("/resource/template");
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(10); // default limit
    expect(r.json.counts).toBe(10);
    expect(r.json.total_sum).toBe(24); // six GPU models x 1/2/4/8
    const t = r.json.data[0];
    for (const field of [
      "name",
      "cpu",
      "memory",
      "gpu",
      "gpu_memory",
      "rg_id",
      "ib",
      "rg_node_id",
      "pod_type",
      "gpu_list",
      "gpu_name",
      "show_user",
      "hashrate_allocation",
      "data_disk_size",
      "cpu_manufacturer",
      "cpu_model",
      "spec_type",
      "tmp_id",
      "resource_group",
      "rg_node_name",
      "show_users_info",
      "salable",
      "max_applicable_number",
    ]) {
      expect(t, field).toHaveProperty(field);
    }
    expect(t).toMatchObject({
      tmp_id: 1001,
      name: "NVIDIA A100-80G x1",
      gpu: 1,
      gpu_memory: 80,
      spec_type: "common",
      rg_id: "rg-publicgpu001",
      show_user: ["usr-emulator"],
    });
    expect(t.pod_type).toEqual(["infer", "instance", "job"]);
    expect(t.resource_group).toMatchObject({ rg_id: "rg-publicgpu001", pod_type: "infer,instance,job", status: "active" });
    expect(t.show_users_info[0]).toMatchObject({ user_id: "usr-emulator" });
  });

  it("filters by spec_type, gpu_name, template_ids, rg_id, pod_type and pages", async () => {
    const cpu = await get("/resource/template", { spec_type: "only_cpu" });
    expect(cpu.json.total_sum).toBe(5);
    expect(cpu.json.data.every((t: { gpu: number }) => t.gpu === 0)).toBe(true);
    const shared = await get("/resource/template", { spec_type: ["share_gpu"], pod_type: "instance" });
    expect(shared.json.total_sum).toBe(3);
    expect(shared.json.data.every((t: { hashrate_allocation: number }) => t.hashrate_allocation < 100)).toBe(true);
    expect((await get("/resource/template", { spec_type: "share_gpu", pod_type: "job" })).json.total_sum).toBe(0);
    const both = await get("/resource/template", { spec_type: ["common", "only_cpu"], limit: 100 });
    expect(both.json.total_sum).toBe(29);
    const h800 = await get("/resource/template", { gpu_name: "h800" });
    expect(h800.json.data.map((t: { gpu: number }) => t.gpu)).toEqual([1, 2, 4, 8]);
    const ids = await get("/resource/template", { template_ids: [1002, 1005] });
    expect(ids.json.data.map((t: { tmp_id: number }) => t.tmp_id)).toEqual([1002, 1005]);
    const ib = await get("/resource/template", { rg_id: "rg-publicgpu002" });
    expect(ib.json.total_sum).toBe(3);
    expect(ib.json.data.every((t: { ib: number }) => t.ib === 1)).toBe(true);
    const page2 = await get("/resource/template", { offset: 20, limit: 10 });
    expect(page2.json.data).toHaveLength(4);
    expect(page2.json.counts).toBe(4);
    expect(page2.json.total_sum).toBe(24);
    const rev = await get("/resource/template", { reverse: true, limit: 1, order_by: "tmp_id" });
    expect(rev.json.data[0].tmp_id).toBe(1024);
  });

  it("grows the catalogue through create template (one or many)", async () => {
    const one = await post("/resource/template", {
      name: "tiny",
      cpu: 1,
      memory: 2,
      gpu: 0,
      rg_id: "rg-publiccpu001",
      rg_node_id: "rgn-tiny",
      pod_type: ["instance"],
      spec_type: "only_cpu",
    });
    expect(one.status).toBe(200);
    expect(one.json.data.tmp_ids).toHaveLength(1);
    const many = await post(
      "/resource/template",
      Array.from({ length: 200 }, (_, i) => ({
        name: `bulk-${i}`,
        cpu: 2,
        memory: 4,
        gpu: 1,
        gpu_name: "Bulk GPU",
        rg_id: "rg-publicgpu001",
        rg_node_id: `rgn-bulk${i}`,
        pod_type: ["job"],
      })),
    );
    expect(many.json.data.tmp_ids).toHaveLength(200);
    const listed = await get("/resource/template", { gpu_name: "bulk", limit: 1000 });
    expect(listed.json.total_sum).toBe(200);
    expect(listed.json.data).toHaveLength(100); // a page never holds more than 100
    expect(listed.json.data[0].name).toBe("bulk-0");
    const bad = await post("/resource/template", { name: "x", cpu: 1, memory: 1, gpu: 0, rg_id: "rg-nope", rg_node_id: "n", pod_type: ["job"] });
    expect(bad.status).toBe(404);
  });
});

describe("resource groups (platform-api A4.3 and assumed routes)", () => {
  it("creates a group with the sample's field names and pod_type as one string", async () => {
    const r = await post("/resource/resource_group", {
      name: "team-a",
      description: "Team A",
      sku_id: "sku-publicgpu001",
      pod_type: ["infer", "instance"],
      customize_enable: 1,
    });
    expect(r.status).toBe(200);
    expect(r.json.counts).toBe(0);
    const g = r.json.data;
    expect(Array.isArray(g)).toBe(false);
    expect(g.rg_id).toMatch(/^rg-[a-z0-9]{12}$/);
    expect(g).toMatchObject({
      name: "team-a",
      description: "Team A",
      pod_type: "infer,instance",
      customize_enable: 1,
      status: "active",
      resource_type: "general",
      user_id: "usr-emulator",
      root_user_id: "usr-emulator",
      sku_id: "sku-publicgpu001",
    });
    expect(g.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(g).not.toHaveProperty("create_at");
  });

  it("gets, updates, lists with paging and name filter, and deletes", async () => {
    const ids: string[] = [];
    for (const name of ["alpha-1", "alpha-2", "beta"]) {
      ids.push((await post("/resource/resource_group", { name, description: "", sku_id: "s", pod_type: ["job"], customize_enable: 0 })).json.data.rg_id);
    }
    const got = await get(`/resource/resource_group/${ids[0]}`);
    expect(got.json.data).toMatchObject({ rg_id: ids[0], name: "alpha-1", pod_type: "job" });
    const upd = await post(
      "/resource/resource_group",
      { rg_id: ids[0], name: "alpha-one", description: "d", pod_type: ["job", "infer"], customize_enable: 1 },
      "PUT",
    );
    expect(upd.json.data).toMatchObject({ name: "alpha-one", pod_type: "job,infer", customize_enable: 1 });
    const alphas = await get("/resource/resource_group", { name: "ALPHA", limit: 1 });
    expect(alphas.json.total_sum).toBe(2);
    expect(alphas.json.data).toHaveLength(1);
    const del = await api.send({ method: "DELETE", path: `/resource/resource_group/${ids[0]}` });
    expect(del.status).toBe(200);
    expect((await get(`/resource/resource_group/${ids[0]}`)).status).toBe(404);
    expect((await api.send({ method: "DELETE", path: `/resource/resource_group/${ids[0]}` })).status).toBe(404);
    expect(emu.listResourceGroups().some((g) => g.rg_id === ids[1])).toBe(true);
  });
});

describe("training pods (platform-api A4.1)", () => {
  it("returns Kubernetes pods of a job, counts = pod count, non-ASCII names included", async () => {
    const name = "训练-job";
    const created = await post("/trains/namespaces/usr-emulator/create", {
      charge_mode: "elastic",
      duration: 3600,
      name,
      endpoint: "tfjobs",
      image: "tensorflow/tensorflow:2.15.0-gpu",
      image_type: "official",
      command: "python train.py",
      replica_specs: [
        { replica_type: "Worker", replicas: 2, custom_cpu: 8, custom_memory: 32, custom_gpu: 1, custom_gpu_name: "NVIDIA A100-80G" },
        { replica_type: "PS", replicas: 1, custom_cpu: 4, custom_memory: 16 },
      ],
    });
    expect(created.status).toBe(200);
    const r = await get(`/trains/namespaces/usr-emulator/endpoints/tfjobs/trains/${encodeURIComponent(name)}/pods`);
    expect(r.status).toBe(200);
    expect(r.json.counts).toBe(3);
    expect(r.json.data.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual([`${name}-worker-0`, `${name}-worker-1`, `${name}-ps-0`]);
    const pod = r.json.data[0];
    expect(pod).toMatchObject({ kind: "Pod", apiVersion: "v1", metadata: { namespace: "usr-emulator" }, status: { phase: "Running", qosClass: "Guaranteed" } });
    expect(pod.metadata.labels["training.kubeflow.org/job-name"]).toBe(name);
    expect(typeof pod.metadata.annotations).toBe("object");
    expect(pod.status.hostIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(pod.status.podIP).toMatch(/^10\./);
    expect(pod.status.containerStatuses[0].image).toBe("tensorflow/tensorflow:2.15.0-gpu");
    expect(pod.status.containerStatuses[0].state.running.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(pod.spec.containers[0].resources.limits).toEqual({ cpu: "8", memory: "32Gi", "nvidia.com/gpu": "1" });
    expect(Array.isArray(pod.spec.containers[0].env)).toBe(true);
    for (const key of ["nodeName", "volumes", "nodeSelector", "tolerations", "affinity"]) expect(pod.spec, key).toHaveProperty(key);
    const jobs = await get("/trains/namespaces/usr-emulator/trains");
    expect(jobs.json.total_sum).toBe(1);
    expect(jobs.json.data[0]).toMatchObject({ name, endpoint: "tfjobs", status: "Running" });
    expect(jobs.json.data[0].uuid).toMatch(/^tn-[a-z0-9]{12}$/); // platform-api B5
    expect(created.json.data[0].uuid).toBe(jobs.json.data[0].uuid);
  });

  it("answers 404 for an unknown job and 409 for a duplicate name", async () => {
    const r = await get("/trains/namespaces/usr-emulator/endpoints/tfjobs/trains/nope/pods");
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ ret_code: 404, data: null });
    const body = {
      charge_mode: "elastic",
      duration: 3600,
      name: "dup",
      endpoint: "pytorchjobs",
      image: "pytorch",
      image_type: "official",
      replica_specs: [{ replica_type: "Master" }],
    };
    expect((await post("/trains/namespaces/usr-emulator/create", body)).status).toBe(200);
    expect((await post("/trains/namespaces/usr-emulator/create", body)).status).toBe(409);
  });
});
