import * as pulumi from "@pulumi/pulumi";
import { functionRegistry } from "../../functions";
import type { GetNotebookServersArgs, GetNotebookServersResult } from "../../functions/types";
import type { NotebookServer } from "../types";
import { outputForm, promiseForm } from "./program-client";

export type { GetNotebookServersArgs, GetNotebookServersResult } from "../../functions/types";

/** Result of {@link getNotebookServersOutput}: each password is a secret Output of its own. */
export interface GetNotebookServersOutputResult {
  readonly servers: Array<Omit<NotebookServer, "password"> & { password?: pulumi.Output<string> }>;
}

/**
 * Reads a notebook's servers with their passwords (jupyter token, ssh…). The
 * Notebook resource keeps no password in the state; this reads them from the
 * platform when the program runs. Prefer the Output form, which marks every
 * password secret.
 *
 * @example
 * const servers = aicp.getNotebookServersOutput({ uuid: notebook.uuid });
 * export const jupyterPassword = servers.apply((r) => r.servers[0]?.password);
 */
export function getNotebookServers(args: GetNotebookServersArgs, opts?: pulumi.InvokeOptions): Promise<GetNotebookServersResult> {
  return promiseForm(functionRegistry.getNotebookServers)(args, opts);
}

/** {@link getNotebookServers} with arguments that may be Outputs; every password is a secret. */
export function getNotebookServersOutput(
  args: { [K in keyof GetNotebookServersArgs]: pulumi.Input<GetNotebookServersArgs[K]> },
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetNotebookServersOutputResult> {
  // Through outputForm: arguments the program marked secret are left out of a failed call's message, as every function's are.
  return outputForm(getNotebookServers)(args, opts).apply(({ servers }) => ({
    servers: servers.map(({ password, ...server }) => ({
      ...server,
      password: password === undefined || password === null ? undefined : pulumi.secret(password),
    })),
  })) as unknown as pulumi.Output<GetNotebookServersOutputResult>;
}
