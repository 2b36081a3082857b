import type * as pulumi from "@pulumi/pulumi";
import { toCamel, toSnake } from "../../client/case";
import { validationError } from "../../client/errors";
import * as wire from "../../client/wire";
import { camelPath } from "../../provider/inputs";
import type { ResourceTemplate } from "../types";
import type { TemplateFilters } from "../types.generated";
import { outputForm, programClient, reportedInProgram } from "./program-client";

/**
 * Filters of {@link getResourceTemplates}, every query parameter of the list
 * operation (platform-api A4.5): podType, rgId, rgNodeId, orderBy, reverse, offset,
 * limit, gpuName, templateIds, specType (the platform defaults it to `common`).
 */
export type GetResourceTemplatesArgs = TemplateFilters;

/** Result of {@link getResourceTemplates}. */
export interface GetResourceTemplatesResult {
  /** The matching templates: all of them, or one page when `offset` or `limit` is given. */
  readonly templates: ResourceTemplate[];
}

/**
 * Lists resource templates (nodes with CPU, memory, GPU, disk and visibility
 * data). Pages through every result unless `offset` or `limit` asks for one page.
 *
 * @example
 * const { templates } = await aicp.getResourceTemplates({ specType: ["common"], gpuName: "A100" });
 */
export async function getResourceTemplates(args: GetResourceTemplatesArgs = {}, _opts?: pulumi.InvokeOptions): Promise<GetResourceTemplatesResult> {
  return reportedInProgram(async () => {
    const query = toSnake(wire.listTemplatesQuery, args) as Record<string, unknown>;
    const checked = wire.listTemplatesQuery.safeParse(query);
    if (!checked.success) throw validationError("getResourceTemplates arguments", checked.error.issues, camelPath);
    const client = programClient();
    const onePage = args.offset !== undefined || args.limit !== undefined;
    const templates = onePage ? (await client.listTemplates(checked.data)).items : await client.listAllTemplates(omitPaging(checked.data));
    return { templates: templates.map((t) => toCamel(wire.template, t)) };
  });
}

/** {@link getResourceTemplates} with arguments that may be Outputs. */
export const getResourceTemplatesOutput = outputForm(getResourceTemplates);

function omitPaging<T extends { offset?: unknown; limit?: unknown }>(query: T): Omit<T, "offset" | "limit"> {
  const { offset: _o, limit: _l, ...rest } = query;
  return rest;
}
