/**
 * The arguments and results of the data-source functions, as the TypeScript
 * package declares them (sdk/functions re-exports them). No imports but the
 * SDK's own types: the package's published declarations reference this file,
 * and a program's compiler must not need zod's.
 */
import type { DiskMetric, NotebookInfo, NotebookServer, ResourceTemplate, TrainingPod } from "../sdk/types";
import type { NotebookFilters, TemplateFilters } from "../sdk/types.generated";

/** Arguments of getTrainingPods. */
export interface GetTrainingPodsArgs {
  /** Namespace of the job. Default: `aicp:userId` in lower case. */
  namespace?: string;
  /** Job type, e.g. `tfjobs` or `pytorchjobs`. */
  endpoint: string;
  /** Name of the training job; non-ASCII names are fine. */
  trainName: string;
}

/** Result of getTrainingPods. */
export interface GetTrainingPodsResult {
  /** Kubernetes pods of the job (platform-api A2.1). */
  readonly pods: TrainingPod[];
}

/** Arguments of getNotebookDiskMetrics. */
export interface GetNotebookDiskMetricsArgs {
  /** Namespace of the notebook. Default: `aicp:userId` in lower case. */
  namespace?: string;
  /** uuid of the notebook (or training job, or resource group). */
  uuid?: string;
}

/** Result of getNotebookDiskMetrics; byte counts are absent when the platform reported no value. */
export interface GetNotebookDiskMetricsResult {
  /** The metrics as returned (platform-api A2.5). */
  readonly metrics: DiskMetric[];
  /** `notebook_zfs_used_bytes`, when the platform reported a value. */
  readonly usedBytes?: number;
  /** `notebook_zfs_pvc_capacity_bytes`, when reported. */
  readonly capacityBytes?: number;
  /** `notebook_zfs_pvc_available_bytes`, when reported. */
  readonly availableBytes?: number;
}

/** Arguments of getNotebookServers. */
export interface GetNotebookServersArgs {
  /** Namespace of the notebook. Default: `aicp:userId` in lower case. */
  namespace?: string;
  /** uuid of the notebook, e.g. `notebook.uuid`. */
  uuid: string;
}

/** Result of getNotebookServers: the servers with their passwords in plain text. */
export interface GetNotebookServersResult {
  readonly servers: NotebookServer[];
}

/**
 * Filters of getResourceTemplates, every query parameter of the list
 * operation (platform-api A4.5): podType, rgId, rgNodeId, orderBy, reverse, offset,
 * limit, gpuName, templateIds, specType (the platform defaults it to `common`).
 */
export type GetResourceTemplatesArgs = TemplateFilters;

/** Result of getResourceTemplates. */
export interface GetResourceTemplatesResult {
  /** The matching templates: all of them, or one page when `offset` or `limit` is given. */
  readonly templates: ResourceTemplate[];
}

/**
 * Filters of getNotebooks (platform-api B1, list notebooks): name
 * (partial match), status, endpoints, startAt, endAt, owner, orderBy, reverse,
 * offset, limit; plus the namespace (default `aicp:userId` in lower case).
 */
export type GetNotebooksArgs = NotebookFilters & {
  /** Namespace of the notebooks. Default: `aicp:userId` in lower case. */
  namespace?: string;
};

/** Result of getNotebooks. */
export interface GetNotebooksResult {
  readonly notebooks: NotebookInfo[];
}
