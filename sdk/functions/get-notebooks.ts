import type * as pulumi from "@pulumi/pulumi";
import { functionRegistry } from "../../functions";
import type { GetNotebooksArgs, GetNotebooksResult } from "../../functions/types";
import { outputForm, promiseForm } from "./program-client";

export type { GetNotebooksArgs, GetNotebooksResult } from "../../functions/types";

/**
 * Lists notebooks of a namespace, paging through every result unless `offset`
 * or `limit` asks for one page. Server passwords and env values are left out
 * (a function's result is not secret in the state; env names are kept): read
 * passwords with getNotebookServersOutput, whose passwords are secret. Times
 * carry the platform's zone when it is configured or learned.
 *
 * @example
 * const { notebooks } = await aicp.getNotebooks({ status: ["Running"] });
 */
export function getNotebooks(args: GetNotebooksArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetNotebooksResult> {
  return promiseForm(functionRegistry.getNotebooks)(args, opts);
}

/** {@link getNotebooks} with arguments that may be Outputs. */
export const getNotebooksOutput = outputForm(getNotebooks);
