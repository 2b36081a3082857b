/** Notebook disk monitoring (platform-api A4.4): the six metrics, filled only while the notebook runs. */
import { notFound } from "../errors";
import { diskMetricsQuery } from "../schemas/notebook";
import type { NotebookRecord } from "../records";
import { stableHash } from "../util";
import { type Handler, queryOf } from "./context";
import { notebookStatus } from "./notebook-wire";

const GIB = 1024 ** 3;

/** The six metric names, in the order platform-api A4.4 lists them. */
export const DISK_METRIC_NAMES = [
  "notebook_zfs_used_bytes",
  "notebook_zfs_pvc_capacity_bytes",
  "notebook_zfs_pvc_available_bytes",
  "pod_system_disk_limit_bytes",
  "pod_system_disk_usage_bytes",
  "pod_system_disk_available_bytes",
] as const;

/** Capacity, usage and availability in bytes; used + available = capacity for both disks. */
function diskFigures(nb: NotebookRecord, now: number): Record<(typeof DISK_METRIC_NAMES)[number], number> {
  const dataGib = Number(nb.replica_specs.custom_data_disk_size) || 50;
  const systemGib = Number(nb.replica_specs.custom_system_disk_size) || 50;
  const h = stableHash(nb.uuid);
  // Usage grows slowly with time so repeated reads look alive, but never exceeds 90 %.
  const minutes = Math.max(0, (now - nb.created_ms) / 60_000);
  const zfsCapacity = dataGib * GIB;
  const zfsUsed = Math.min(Math.floor(zfsCapacity * 0.9), Math.floor(zfsCapacity * (0.05 + (h % 20) / 100)) + Math.floor(minutes) * 4096);
  const sysLimit = systemGib * GIB;
  const sysUsed = Math.min(Math.floor(sysLimit * 0.9), Math.floor(sysLimit * (0.1 + ((h >>> 8) % 20) / 100)) + Math.floor(minutes) * 4096);
  return {
    notebook_zfs_used_bytes: zfsUsed,
    notebook_zfs_pvc_capacity_bytes: zfsCapacity,
    notebook_zfs_pvc_available_bytes: zfsCapacity - zfsUsed,
    pod_system_disk_limit_bytes: sysLimit,
    pod_system_disk_usage_bytes: sysUsed,
    pod_system_disk_available_bytes: sysLimit - sysUsed,
  };
}

/** GET /monitoring/namespaces/{namespace}/notebook/disk?uuid=…: counts 0 (platform-api A1). */
export const getNotebookDiskMetrics: Handler = (ctx) => {
  const q = queryOf(diskMetricsQuery, ctx);
  const namespace = ctx.params.namespace!;
  const nb = q.uuid === undefined ? undefined : ctx.store.data.notebooks.find((n) => n.uuid === q.uuid && n.namespace === namespace);
  if (q.uuid !== undefined && !nb) throw notFound(`notebook '${q.uuid}' in namespace '${namespace}'`);
  const running = nb !== undefined && notebookStatus(nb, ctx.now, ctx.readyDelayMs) === "Running";
  const figures = running ? diskFigures(nb, ctx.now) : undefined;
  const seconds = Math.floor(ctx.now / 1000);
  const data = DISK_METRIC_NAMES.map((metric_name) => {
    const value = figures?.[metric_name];
    return {
      resultType: "vector",
      metric_name,
      result:
        value === undefined
          ? []
          : [
              {
                metric: { notebook_uuid: nb!.uuid, namespace: nb!.namespace },
                value: [seconds, String(value)],
                max_value: String(value),
                avg_value: String(value),
                min_value: String(value),
              },
            ],
    };
  });
  return { data, counts: 0 };
};
