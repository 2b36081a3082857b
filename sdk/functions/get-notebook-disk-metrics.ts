import type * as pulumi from "@pulumi/pulumi";
import { functionRegistry } from "../../functions";
import type { GetNotebookDiskMetricsArgs, GetNotebookDiskMetricsResult } from "../../functions/types";
import { outputForm, promiseForm } from "./program-client";

export type { GetNotebookDiskMetricsArgs, GetNotebookDiskMetricsResult } from "../../functions/types";

/**
 * Reads the disk metrics of a notebook that has not terminated.
 *
 * @example
 * const disk = aicp.getNotebookDiskMetricsOutput({ uuid: notebook.uuid });
 * export const diskUsedBytes = disk.usedBytes;
 */
export function getNotebookDiskMetrics(args: GetNotebookDiskMetricsArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetNotebookDiskMetricsResult> {
  return promiseForm(functionRegistry.getNotebookDiskMetrics)(args, opts);
}

/** {@link getNotebookDiskMetrics} with arguments that may be Outputs. */
export const getNotebookDiskMetricsOutput = outputForm(getNotebookDiskMetrics);
