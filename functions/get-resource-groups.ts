/** getResourceGroups: the account's resource groups (platform-api B6, the list the operator's SDK sends). */
import { z } from "zod";
import { toCamel } from "../client/case";
import type { ListOperation } from "../client/client";
import * as wire from "../client/wire";
import { paging } from "../client/wire/common";
import { withoutGroupMark } from "../provider/ownership";
import { argsOf, dataSourceFunction, pageOrEvery } from "./function";

const resourceGroupInfo = wire.resourceGroup.meta({ title: "ResourceGroupInfo", description: "A resource group as the platform lists it." });

/** The list the provider also reads to confirm a group is gone (client/client.ts getResourceGroup), with the operator's SDK's filters. */
const listResourceGroups = {
  operation: "listResourceGroups",
  query: z.strictObject({
    offset: paging.offset.describe("Index of the first group of the one page to read."),
    limit: paging.limit.describe("Groups in the one page to read, 1 to 100."),
    search_word: z.string().optional().describe("Part of the groups' names, in any case."),
    order_by: z.string().optional().describe("Field the groups are sorted by; the platform's default is `created_at`."),
    reverse: z.boolean().optional().describe("Sort in the reverse order (newest first, by default)."),
  }),
  item: resourceGroupInfo,
  keyOf: (group) => group.rg_id,
} satisfies ListOperation<z.ZodObject, typeof resourceGroupInfo>;

export const getResourceGroups = dataSourceFunction({
  name: "getResourceGroups",
  secretResults: [],
  example: 'const { groups } = await aicp.getResourceGroups({ searchWord: "team" });',
  declaration: {
    doc:
      "Lists the account's resource groups, paging through every result unless `offset` or `limit` asks for one page. Times carry the " +
      "platform's zone when it is configured or learned.",
    args: argsOf(listResourceGroups.query),
    results: {
      groups: { schema: z.array(resourceGroupInfo), required: true, doc: "The matching groups: all of them, or one page when `offset` or `limit` is given." },
    },
  },
  async run(context, args) {
    const query = { offset: args.offset, limit: args.limit, search_word: args.searchWord, order_by: args.orderBy, reverse: args.reverse };
    const groups = await pageOrEvery("getResourceGroups", context.client, listResourceGroups, query);
    const zone = context.client.timeZone;
    // A group this provider made carries its mark at the end of its description: the ResourceGroup resource leaves it out, and so does this.
    const shown = (g: (typeof groups)[number]) => ({
      ...g,
      description: typeof g.description === "string" ? withoutGroupMark(g.description) : g.description,
      created_at: zone.normalise(g.created_at),
      updated_at: zone.normalise(g.updated_at),
    });
    return { groups: groups.map((g) => toCamel(resourceGroupInfo, shown(g))) };
  },
});
