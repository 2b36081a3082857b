/** getResourceTemplates: the resource templates of the catalogue (platform-api A4.5). */
import { z } from "zod";
import { toCamel, toSnake } from "../client/case";
import { validationError } from "../client/errors";
import * as wire from "../client/wire";
import { camelPath } from "../provider/inputs";
import type { GetResourceTemplatesArgs, GetResourceTemplatesResult } from "./types";
import { argsOf, dataSourceFunction } from "./function";

export const getResourceTemplates = dataSourceFunction<GetResourceTemplatesArgs, GetResourceTemplatesResult>({
  secretResults: [],
  declaration: {
    doc:
      "Lists resource templates (nodes with CPU, memory, GPU, disk and visibility data). Pages through every result unless `offset` or `limit` " +
      "asks for one page.",
    args: argsOf(wire.listTemplatesQuery),
    results: {
      templates: {
        schema: z.array(wire.template),
        required: true,
        doc: "The matching templates: all of them, or one page when `offset` or `limit` is given.",
      },
    },
  },
  async run(context, args) {
    const checked = wire.listTemplatesQuery.safeParse(toSnake(wire.listTemplatesQuery, args));
    if (!checked.success) throw validationError("getResourceTemplates arguments", checked.error.issues, camelPath);
    const onePage = args.offset !== undefined || args.limit !== undefined;
    const { offset: _offset, limit: _limit, ...everyPage } = checked.data;
    const templates = onePage ? (await context.client.listTemplates(checked.data)).items : await context.client.listAllTemplates(everyPage);
    return { templates: templates.map((t) => toCamel(wire.template, t)) };
  },
});
