import { describe, expect, it } from "vitest";
import { z } from "zod";
import { camelToSnake, snakeToCamel, toCamel, toSnake } from "../../client/case";
import * as wire from "../../client/wire";

describe("case conversion", () => {
  it("converts names both ways", () => {
    expect(snakeToCamel("custom_gpu_list")).toBe("customGpuList");
    expect(snakeToCamel("rg_node_id")).toBe("rgNodeId");
    expect(camelToSnake("customGpuList")).toBe("custom_gpu_list");
  });

  it("converts keys of objects but keeps keys of free-form maps", () => {
    const pod = wire.pod.parse({
      metadata: { name: "p", labels: { "app.kubernetes.io/name": "x", training_job: "y" } },
      status: { hostIP: "1.2.3.4", pod_ip_extra: "kept value" },
    });
    const camel = toCamel(wire.pod, pod) as { metadata: { labels: unknown }; status: Record<string, unknown> };
    expect(camel.metadata.labels).toEqual({ "app.kubernetes.io/name": "x", training_job: "y" });
    expect(camel.status.hostIP).toBe("1.2.3.4");
    expect(camel.status.podIpExtra).toBe("kept value");
  });

  it("keeps a key the schema spells in camelCase on the wire", () => {
    const metric = { resultType: "vector", metric_name: "pod_system_disk_usage_bytes", result: [] };
    expect(toCamel(wire.metric, metric)).toEqual({ resultType: "vector", metricName: "pod_system_disk_usage_bytes", result: [] });
    expect(toSnake(wire.metric, { resultType: "vector", metricName: "m" })).toEqual({ resultType: "vector", metric_name: "m" });
  });

  it("converts nested request objects and lists to the wire", () => {
    const camel = {
      chargeMode: "elastic",
      replicaSpecs: { customGpuList: ["0", "1"], rgId: "rg-1" },
      volumeSpecs: [{ fileSet: "fs", mountPath: "/data" }],
      customImageSecret: { hasAuth: true, username: "u" },
    };
    expect(toSnake(wire.createNotebookRequest, camel)).toEqual({
      charge_mode: "elastic",
      replica_specs: { custom_gpu_list: ["0", "1"], rg_id: "rg-1" },
      volume_specs: [{ file_set: "fs", mount_path: "/data" }],
      custom_image_secret: { has_auth: true, username: "u" },
    });
  });

  it("leaves values of unknown structure untouched", () => {
    const schema = z.looseObject({ extra_data: z.unknown() });
    expect(toCamel(schema, { extra_data: { inner_key: 1 } })).toEqual({ extraData: { inner_key: 1 } });
  });
});
