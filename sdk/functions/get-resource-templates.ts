import type * as pulumi from "@pulumi/pulumi";
import { functionRegistry } from "../../functions";
import type { GetResourceTemplatesArgs, GetResourceTemplatesResult } from "../../functions/types";
import { outputForm, promiseForm } from "./program-client";

export type { GetResourceTemplatesArgs, GetResourceTemplatesResult } from "../../functions/types";

/**
 * Lists resource templates (nodes with CPU, memory, GPU, disk and visibility
 * data). Pages through every result unless `offset` or `limit` asks for one page.
 *
 * @example
 * const { templates } = await aicp.getResourceTemplates({ specType: ["common"], gpuName: "A100" });
 */
export function getResourceTemplates(args: GetResourceTemplatesArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetResourceTemplatesResult> {
  return promiseForm(functionRegistry.getResourceTemplates)(args, opts);
}

/** {@link getResourceTemplates} with arguments that may be Outputs. */
export const getResourceTemplatesOutput = outputForm(getResourceTemplates);
