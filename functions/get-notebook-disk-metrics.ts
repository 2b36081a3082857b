/** getNotebookDiskMetrics: the disk metrics of a notebook that has not terminated (platform-api A2.5). */
import { z } from "zod";
import { toCamel } from "../client/case";
import * as wire from "../client/wire";
import { checkedArgs, dataSourceFunction, namespaceOf } from "./function";

export const getNotebookDiskMetrics = dataSourceFunction({
  name: "getNotebookDiskMetrics",
  secretResults: [],
  example: 'const disk = await aicp.getNotebookDiskMetrics({ uuid: "nb-egzgnq0bhxq8" });',
  declaration: {
    doc: "Reads the disk metrics of a notebook that has not terminated.",
    args: { namespace: namespaceOf("notebook"), uuid: { schema: z.string(), doc: "uuid of the notebook (or training job, or resource group)." } },
    results: {
      metrics: { schema: z.array(wire.metric), required: true, doc: "The metrics as returned (platform-api A2.5)." },
      usedBytes: { schema: z.number(), doc: "`notebook_zfs_used_bytes`, when the platform reported a value." },
      capacityBytes: { schema: z.number(), doc: "`notebook_zfs_pvc_capacity_bytes`, when reported." },
      availableBytes: { schema: z.number(), doc: "`notebook_zfs_pvc_available_bytes`, when reported." },
    },
  },
  async run(context, args) {
    const query = checkedArgs("getNotebookDiskMetrics", wire.diskMetricsQuery, { namespace: args.namespace ?? context.defaultNamespace(), uuid: args.uuid });
    const metrics = await context.client.getNotebookDiskMetrics(query);
    const value = (name: string) => latestValue(metrics.find((m) => m.metric_name === name));
    return {
      metrics: metrics.map((m) => toCamel(wire.metric, m)),
      usedBytes: value("notebook_zfs_used_bytes"),
      capacityBytes: value("notebook_zfs_pvc_capacity_bytes"),
      availableBytes: value("notebook_zfs_pvc_available_bytes"),
    };
  },
});

/** The sample value of a vector result (`value: [time, "number"]`), else its avg/max value. */
function latestValue(metric: wire.Metric | undefined): number | undefined {
  const first = metric?.result?.[0] as { value?: unknown; avg_value?: unknown; max_value?: unknown } | undefined;
  if (!first) return undefined;
  const raw = Array.isArray(first.value) ? first.value[1] : (first.avg_value ?? first.max_value);
  const n = Number(raw);
  return raw === undefined || raw === null || Number.isNaN(n) ? undefined : n;
}
