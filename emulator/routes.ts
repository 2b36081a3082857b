/**
 * The platform's routes as the emulator serves them, written from the spec
 * (docs/platform-api.md A4) and platform-api B1 and B2. Paths are relative
 * to the path prefix (`/aicp` or `/qai/aicp`, platform-api B3). Routes no
 * public source shows are marked `assumed`; the `absentOperations` dialect
 * switch removes them to play a platform that lacks them.
 */

/** One route: method, path template (`{name}` is one path segment) and where it is documented. */
export interface EmulatorRoute {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: string;
  readonly source: string;
}

/** Operation name -> route. The names are the ones faults and tests use. */
export const ROUTES = {
  listTrainingPods: { method: "GET", path: "/trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods", source: "platform-api A4.1" },
  createNotebook: { method: "POST", path: "/notebooks/namespaces/{namespace}/create", source: "platform-api A4.2" },
  createResourceGroup: { method: "POST", path: "/resource/resource_group", source: "platform-api A4.3" },
  getNotebookDiskMetrics: { method: "GET", path: "/monitoring/namespaces/{namespace}/notebook/disk", source: "platform-api A4.4" },
  listTemplates: { method: "GET", path: "/resource/template", source: "platform-api A4.5" },
  listNotebooks: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks", source: "platform-api B1" },
  stopNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/stop", source: "platform-api B1" },
  startNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/start", source: "platform-api B1" },
  setStopTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_stop_time", source: "platform-api B1" },
  setDeleteTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_delete_time", source: "platform-api B1" },
  changeImage: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/change_image", source: "platform-api B1" },
  getNotebookServers: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks/{uuid}/servers", source: "platform-api B1" },
  createTemplate: { method: "POST", path: "/resource/template", source: "platform-api B1" },
  updateResourceGroup: { method: "PUT", path: "/resource/resource_group", source: "platform-api B1" },
  listTrainingJobs: { method: "GET", path: "/trains/namespaces/{namespace}/trains", source: "platform-api B1" },
  createTrainingJob: { method: "POST", path: "/trains/namespaces/{namespace}/create", source: "platform-api B1" },
  getResourceGroup: { method: "GET", path: "/resource/resource_group/{rg_id}", source: "assumed" },
  listResourceGroups: { method: "GET", path: "/resource/resource_group", source: "platform-api B6 (the operator's SDK)" },
  deleteResourceGroup: { method: "DELETE", path: "/resource/resource_group/{rg_id}", source: "assumed" },
} as const satisfies Record<string, EmulatorRoute>;

/** The name of an operation the emulator serves. */
export type OperationName = keyof typeof ROUTES;

/** Every operation name, in table order. */
export const OPERATION_NAMES = Object.keys(ROUTES) as OperationName[];
