/** getResourceTemplates: the resource templates of the catalogue (platform-api A4.5). */
import { z } from "zod";
import { toCamel, toSnake } from "../client/case";
import * as wire from "../client/wire";
import { argsOf, checkedArgs, dataSourceFunction } from "./function";

export const getResourceTemplates = dataSourceFunction({
  name: "getResourceTemplates",
  secretResults: [],
  example: 'const { templates } = await aicp.getResourceTemplates({ specType: ["common"], gpuName: "A100" });',
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
    const checked = checkedArgs("getResourceTemplates", wire.listTemplatesQuery, toSnake(wire.listTemplatesQuery, args));
    const onePage = args.offset !== undefined || args.limit !== undefined;
    const { offset: _offset, limit: _limit, ...everyPage } = checked;
    const templates = onePage ? (await context.client.listTemplates(checked)).items : await context.client.listAllTemplates(everyPage);
    return { templates: templates.map((t) => toCamel(wire.template, t)) };
  },
});
