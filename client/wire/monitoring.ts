/** Wire schemas of notebook disk monitoring: platform-api A2.5 and A4.4. */
import { z } from "zod";
import { maybe, notebookUuid, pathSegment } from "./common";

export const diskMetricNames = [
  "notebook_zfs_used_bytes",
  "notebook_zfs_pvc_capacity_bytes",
  "notebook_zfs_pvc_available_bytes",
  "pod_system_disk_limit_bytes",
  "pod_system_disk_usage_bytes",
  "pod_system_disk_available_bytes",
] as const;

export const diskMetricsQuery = z.strictObject({ namespace: pathSegment, uuid: notebookUuid.optional() });
export type DiskMetricsQuery = z.input<typeof diskMetricsQuery>;

/** One metric; `result` items are Prometheus-like and only partly specified. */
export const metric = z
  .looseObject({
    // Kept as the platform spells it (camelCase on the wire).
    resultType: maybe(z.string()),
    result: maybe(z.array(z.looseObject({}))),
    metric_name: maybe(z.string()),
  })
  .meta({ title: "DiskMetric" });
export type Metric = z.output<typeof metric>;
