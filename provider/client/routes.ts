/**
 * The route table: every operation the provider uses, in one place. Paths are
 * relative to the path prefix (`/qai/aicp` by default, platform notes §3).
 * Routes the platform does not document are marked `assumed`; a user can
 * override any route through the `aicp:routes` configuration.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Route {
  readonly method: HttpMethod;
  /** Path template; `{name}` is replaced by one encoded path segment. */
  readonly path: string;
  /** Where the route is documented, or `assumed` when no public source shows it. */
  readonly source: string;
}

export const defaultRoutes = {
  listTrainingPods: { method: "GET", path: "/trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods", source: "spec 4.1" },
  createNotebook: { method: "POST", path: "/notebooks/namespaces/{namespace}/create", source: "spec 4.2" },
  createResourceGroup: { method: "POST", path: "/resource/resource_group", source: "spec 4.3" },
  getNotebookDiskMetrics: { method: "GET", path: "/monitoring/namespaces/{namespace}/notebook/disk", source: "spec 4.4" },
  listTemplates: { method: "GET", path: "/resource/template", source: "spec 4.5" },
  listNotebooks: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks", source: "platform notes §1" },
  getNotebookServers: { method: "GET", path: "/notebooks/namespaces/{namespace}/notebooks/{uuid}/servers", source: "platform notes §1" },
  stopNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/stop", source: "platform notes §1" },
  startNotebooks: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/start", source: "platform notes §1" },
  setStopTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_stop_time", source: "platform notes §1" },
  setDeleteTime: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/set_delete_time", source: "platform notes §1" },
  changeImage: { method: "POST", path: "/notebooks/namespaces/{namespace}/notebooks/change_image", source: "platform notes §1" },
  createTemplate: { method: "POST", path: "/resource/template", source: "platform notes §1" },
  updateResourceGroup: { method: "PUT", path: "/resource/resource_group", source: "platform notes §1" },
  listTrainingJobs: { method: "GET", path: "/trains/namespaces/{namespace}/trains", source: "platform notes §1" },
  createTrainingJob: { method: "POST", path: "/trains/namespaces/{namespace}/create", source: "platform notes §1" },
  getResourceGroup: { method: "GET", path: "/resource/resource_group/{rg_id}", source: "assumed" },
  listResourceGroups: { method: "GET", path: "/resource/resource_group", source: "assumed" },
  deleteResourceGroup: { method: "DELETE", path: "/resource/resource_group/{rg_id}", source: "assumed" },
} as const satisfies Record<string, Route>;

export type OperationName = keyof typeof defaultRoutes;
export type RouteTable = { readonly [K in OperationName]: Route };

export const operationNames = Object.keys(defaultRoutes) as OperationName[];

/**
 * Applies overrides written as `"METHOD /path/{param}"` (or just a path, which
 * keeps the method). An override makes the route the user's, no longer assumed.
 */
export function resolveRoutes(overrides: Readonly<Record<string, string>> = {}): RouteTable {
  const table: Record<string, Route> = { ...defaultRoutes };
  for (const [name, spec] of Object.entries(overrides)) {
    if (!(name in defaultRoutes)) {
      throw new Error(`aicp:routes names an unknown operation '${name}'; known operations: ${operationNames.join(", ")}`);
    }
    const match = /^(?:(GET|POST|PUT|DELETE)\s+)?(\/\S*)$/.exec(spec.trim());
    if (!match) {
      throw new Error(`aicp:routes.${name} must look like "DELETE /resource/resource_group/{rg_id}" (method optional, path starting with '/'), got '${spec}'`);
    }
    const base = defaultRoutes[name as OperationName];
    table[name] = { method: (match[1] as HttpMethod | undefined) ?? base.method, path: match[2]!, source: "configured" };
  }
  return table as RouteTable;
}

/** Placeholder names of a path template, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * Fills a path template, encoding each value as exactly one path segment, so a
 * value such as `../x` or `a/b` can never change which route is called.
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new Error(`path parameter '${name}' is required`);
    if (value === "." || value === "..") throw new Error(`path parameter '${name}' must not be '${value}'`);
    return encodeURIComponent(value);
  });
}
