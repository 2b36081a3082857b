import * as pulumi from "@pulumi/pulumi";
import { toCamel } from "../../client/case";
import { validationError } from "../../client/errors";
import * as wire from "../../client/wire";
import { camelPath } from "../../provider/inputs";
import type { NotebookServer } from "../types";
import { namespaceOr, programClient, reportedInProgram } from "./program-client";

/** Arguments of {@link getNotebookServers}. */
export interface GetNotebookServersArgs {
  /** Namespace of the notebook. Default: `aicp:userId` in lower case. */
  namespace?: string;
  /** uuid of the notebook, e.g. `notebook.uuid`. */
  uuid: string;
}

/** Result of {@link getNotebookServers}: the servers with their passwords in plain text. */
export interface GetNotebookServersResult {
  readonly servers: NotebookServer[];
}

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
export async function getNotebookServers(args: GetNotebookServersArgs, _opts?: pulumi.InvokeOptions): Promise<GetNotebookServersResult> {
  return reportedInProgram(async () => {
    const query = wire.notebookServersQuery.safeParse({ namespace: namespaceOr(args.namespace), uuid: args.uuid });
    if (!query.success) throw validationError("getNotebookServers arguments", query.error.issues, camelPath);
    const servers = await programClient().getNotebookServers(query.data);
    return { servers: servers.map((s) => toCamel(wire.serverInfo, s)) };
  });
}

/** {@link getNotebookServers} with arguments that may be Outputs; every password is a secret. */
export function getNotebookServersOutput(
  args: { [K in keyof GetNotebookServersArgs]: pulumi.Input<GetNotebookServersArgs[K]> },
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetNotebookServersOutputResult> {
  return pulumi.output(args).apply(async (resolved) => {
    const { servers } = await getNotebookServers(resolved as GetNotebookServersArgs, opts);
    return {
      servers: servers.map(({ password, ...server }) => ({
        ...server,
        password: password === undefined || password === null ? undefined : pulumi.secret(password),
      })),
    };
  }) as unknown as pulumi.Output<GetNotebookServersOutputResult>;
}
