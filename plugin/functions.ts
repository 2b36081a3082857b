/**
 * The data-source functions as the plugin serves them (Invoke), by token:
 * the SDK's own functions (sdk/functions), run with the settings of the
 * provider instance the call names rather than a program's stack config.
 */
import { getNotebookDiskMetrics } from "../sdk/functions/get-notebook-disk-metrics";
import { getNotebookServers } from "../sdk/functions/get-notebook-servers";
import { getNotebooks } from "../sdk/functions/get-notebooks";
import { getResourceTemplates } from "../sdk/functions/get-resource-templates";
import { getTrainingPods } from "../sdk/functions/get-training-pods";

/** A function as the plugin calls it: camelCase arguments in, camelCase result out. */
type PluginFunction = (args: never) => Promise<object>;

/** Each function by its name in the schema (`aicp:index:<name>`), with the result fields kept secret. */
export const functions = {
  getResourceTemplates: { call: getResourceTemplates, secretResults: [] },
  getTrainingPods: { call: getTrainingPods, secretResults: [] },
  getNotebookDiskMetrics: { call: getNotebookDiskMetrics, secretResults: [] },
  // Every server carries its password.
  getNotebookServers: { call: getNotebookServers, secretResults: ["servers"] },
  getNotebooks: { call: getNotebooks, secretResults: [] },
} as const satisfies Record<string, { call: PluginFunction; secretResults: readonly string[] }>;

export type FunctionName = keyof typeof functions;
