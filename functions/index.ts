/**
 * The registry of data-source functions: one line each, by the name the
 * TypeScript package exports and the plugin's token (`aicp:index:<name>`)
 * carries. The plugin (plugin/functions.ts) and the schema (plugin/schema-build.ts)
 * read it; tools/sdk-types/functions.mjs writes the TypeScript package's Promise
 * and Output forms of each (sdk/functions.generated.ts).
 */
import { getNotebookDiskMetrics } from "./get-notebook-disk-metrics";
import { getNotebookServers } from "./get-notebook-servers";
import { getNotebooks } from "./get-notebooks";
import { getResourceGroups } from "./get-resource-groups";
import { getResourceTemplates } from "./get-resource-templates";
import { getTrainingJobs } from "./get-training-jobs";
import { getTrainingPods } from "./get-training-pods";

export const functionRegistry = {
  getResourceTemplates,
  getTrainingPods,
  getNotebookDiskMetrics,
  getNotebookServers,
  getNotebooks,
  getTrainingJobs,
  getResourceGroups,
} as const;

export type FunctionName = keyof typeof functionRegistry;
export type { DataSourceFunction, FunctionContext, FunctionDeclaration } from "./function";
