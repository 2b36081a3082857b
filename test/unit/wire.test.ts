/** The spec's rules carried by the request schemas, and tolerance of the response schemas. */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as wire from "../../client/wire";

const notebook = {
  charge_mode: "elastic",
  duration: 3600,
  user_id: "usr-abc",
  namespace: "usr-abc",
  image: "jupyter:latest",
  image_type: "official",
  name: "nb",
  server_type: "jupyter",
  replica_specs: { specs: "sku-1" },
};

function issues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("create notebook request", () => {
  it("accepts the minimal body and applies the spec's defaults", () => {
    const parsed = wire.createNotebookRequest.parse({ ...notebook, volume_specs: [{ file_set: "fs", mount_path: "/d", volume_type: "pfs" }] });
    expect(parsed.replica_specs.replicas).toBe(1);
    expect(parsed.volume_specs![0]!.quota).toBe(0);
  });

  it("requires duration 3600 for elastic and 1..60 for monthly", () => {
    expect(issues(wire.createNotebookRequest, { ...notebook, duration: 60 })).toEqual(["duration: must be 3600 when charge_mode is elastic"]);
    expect(issues(wire.createNotebookRequest, { ...notebook, charge_mode: "monthly", duration: 12 })).toEqual([]);
    expect(issues(wire.createNotebookRequest, { ...notebook, charge_mode: "monthly", duration: 61 })[0]).toMatch(/^duration: .*1 to 60/);
    expect(issues(wire.createNotebookRequest, { ...notebook, charge_mode: "monthly", duration: 0 })[0]).toMatch(/^duration:/);
  });

  it("rejects values outside the enums", () => {
    expect(issues(wire.createNotebookRequest, { ...notebook, server_type: "vscode" })[0]).toMatch(/^server_type:/);
    expect(issues(wire.createNotebookRequest, { ...notebook, image_type: "private" })[0]).toMatch(/^image_type:/);
    expect(issues(wire.createNotebookRequest, { ...notebook, charge_mode: "hourly" })[0]).toMatch(/^charge_mode:/);
  });

  it("rejects duplicate GPU ids and missing registry credentials", () => {
    expect(issues(wire.createNotebookRequest, { ...notebook, replica_specs: { custom_gpu_list: ["0", "0"] } })).toEqual([
      "replica_specs.custom_gpu_list: must not contain duplicates",
    ]);
    expect(issues(wire.createNotebookRequest, { ...notebook, custom_image_secret: { has_auth: true, username: "u" } })).toEqual([
      "custom_image_secret.password: is required when has_auth is true",
    ]);
  });

  it("rejects empty required strings, unknown fields and path-like namespaces", () => {
    expect(issues(wire.createNotebookRequest, { ...notebook, image: " " })).toEqual(["image: must not be empty"]);
    expect(issues(wire.createNotebookRequest, { ...notebook, imagee: "x" })[0]).toMatch(/imagee/);
    expect(issues(wire.createNotebookRequest, { ...notebook, namespace: ".." })[0]).toMatch(/^namespace:/);
    expect(issues(wire.createNotebookRequest, { ...notebook, namespace: "a/b" })[0]).toMatch(/^namespace:/);
  });
});

describe("other requests", () => {
  it("limits uuids to 36 characters", () => {
    expect(issues(wire.setStopTimeRequest, { uuid: "x".repeat(37), stop_time: "2026-12-01T00:00:00Z" })[0]).toMatch(/^uuid: .*36/);
  });

  it("defaults template paging to offset 0 and limit 10", () => {
    expect(wire.listTemplatesQuery.parse({})).toMatchObject({ offset: 0, limit: 10 });
    expect(issues(wire.listTemplatesQuery, { spec_type: ["gpu"] })[0]).toMatch(/^spec_type/);
  });

  it("requires a pod type list without duplicates for resource groups", () => {
    const group = { name: "g", description: "", sku_id: "s", pod_type: ["infer"], customize_enable: 1 };
    expect(issues(wire.createResourceGroupRequest, group)).toEqual([]);
    expect(issues(wire.createResourceGroupRequest, { ...group, pod_type: [] })[0]).toMatch(/^pod_type/);
    expect(issues(wire.createResourceGroupRequest, { ...group, pod_type: ["gpu"] })[0]).toMatch(/^pod_type/);
    expect(issues(wire.createResourceGroupRequest, { ...group, customize_enable: 2 })[0]).toMatch(/^customize_enable/);
  });
});

describe("responses", () => {
  it("accept the spec's spelling variants of a resource group and keep the sample's", () => {
    const parsed = wire.resourceGroup.parse({ rg_id: "rg-1", create_at: "2026-01-01 00:00:00", rescource_type: "gpu", pod_type: "infer,instance", extra: 1 });
    expect(parsed).toMatchObject({ rg_id: "rg-1", created_at: "2026-01-01 00:00:00", resource_type: "gpu", pod_type: ["infer", "instance"], extra: 1 });
  });

  it("accept absent and null fields and unknown ones", () => {
    expect(wire.notebook.parse({ uuid: "nb-1", reason: null, pod_ips: null, new_field: true })).toMatchObject({ uuid: "nb-1", new_field: true });
  });
});
