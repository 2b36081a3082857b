/**
 * Pulumi resources and functions for the AICP (CoresHub) AI computing platform:
 * notebooks and resource groups as resources; resource templates, training
 * pods, notebook disk metrics and notebooks as data sources.
 *
 * @example
 * import * as aicp from "pulumi-aicp";
 * const group = new aicp.ResourceGroup("team", { skuId: "sku-...", podTypes: ["instance"] });
 */
// First: under a Node.js too old for the package, one line saying so instead of a failure inside a dependency.
import "./node-check";
export { ResourceGroup, type ResourceGroupArgs, type PodType } from "./resource-group";
export { Notebook, type NotebookArgs } from "./notebook";
// Every data-source function's Promise and Output forms, from the registry (functions/index.ts).
export * from "./functions.generated";
export { getNotebookServersOutput, type GetNotebookServersOutputResult } from "./functions/get-notebook-servers-output";
/** Shapes of what the platform returns, in camelCase. */
export type {
  DiskMetric,
  ImageSecret,
  NotebookInfo,
  NotebookServer,
  NotebookServerSummary,
  ReplicaSpecs,
  ResourceTemplate,
  TrainingPod,
  VolumeSpec,
} from "./types";
export { AicpError, type AicpErrorCode } from "../client/errors";
