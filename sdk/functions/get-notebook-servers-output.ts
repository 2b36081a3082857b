/**
 * The Output form of getNotebookServers, written by hand (the other functions'
 * come from the registry, sdk/functions.generated.ts): it marks each password
 * a secret of its own, so the rest of a server stays readable.
 */
import * as pulumi from "@pulumi/pulumi";
import { getNotebookServers, type GetNotebookServersArgs } from "../functions.generated";
import type { NotebookServer } from "../types";
import { outputForm } from "./program-client";

/** Result of {@link getNotebookServersOutput}: each password is a secret Output of its own. */
export interface GetNotebookServersOutputResult {
  readonly servers: Array<Omit<NotebookServer, "password"> & { password?: pulumi.Output<string> }>;
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
