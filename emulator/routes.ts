/**
 * The platform's routes as the emulator serves them, written from the spec
 * (`spec/aicp-api.md` part 4) and platform notes §1 and §2. Paths are relative
 * to the path prefix (`/aicp` or `/qai/aicp`, platform notes §3). Routes no
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
  listTrainingPods: { method: "GET", path: "/trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods", source: "spec 4.1" },
  createNotebook: { method: "POST", path: "/notebooks/namespaces/{namespace}/create", source: "spec 4.2" },
  createResourceGroup: { method: "POST", path: "/resource/resource_group", source: "spec 4.3" },
  getNotebookDiskMetrics: { method: "GET", path: "/monitoring/namespaces/{namespace}/notebook/disk", source: "spec 4.4" },
  listTemplates: { method: "GET", path: "/resource/template", source: "spec 4.5" },
  listNotebooks: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks", source: "platform notes §1" },
  stopNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/stop", source: "platform notes §1" },
  startNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/start", source: "platform notes §1" },
  setStopTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_stop_time", source: "platform notes §1" },
  setDeleteTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_delete_time", source: "platform notes §1" },
  changeImage: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/change_image", source: "platform notes §1" },
  getNotebookServers: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks/{uuid}/servers", source: "platform notes §1" },
  createTemplate: { method: "POST", path: "/resource/template", source: "platform notes §1" },
  updateResourceGroup: { method: "PUT", path: "/resource/resource_group", source: "platform notes §1" },
  listTrainingJobs: { method: "GET", path: "/trains/namespaces/{namespace}/trains", source: "platform notes §1" },
  createTrainingJob: { method: "POST", path: "/trains/namespaces/{namespace}/create", source: "platform notes §1" },
  getResourceGroup: { method: "GET", path: "/resource/resource_group/{rg_id}", source: "assumed" },
  listResourceGroups: { method: "GET", path: "/resource/resource_group", source: "assumed" },
  deleteResourceGroup: { method: "DELETE", path: "/resource/resource_group/{rg_id}", source: "assumed" },
} as const satisfies Record<string, EmulatorRoute>;

/** The name of an operation the emulator serves. */
export type OperationName = keyof typeof ROUTES;

/** Every operation name, in table order. */
export const OPERATION_NAMES = Object.keys(ROUTES) as OperationName[];

