/** Wire schemas of notebook disk monitoring: platform-api A2.5 and A4.4. */
import { z } from "zod";
import { maybe, notebookUuid, pathSegment } from "./common";

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
