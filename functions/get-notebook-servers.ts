/** getNotebookServers: a notebook's servers with their passwords (platform-api A2.3). */
import { z } from "zod";
import { toCamel } from "../client/case";
import * as wire from "../client/wire";
import { checkedArgs, dataSourceFunction, namespaceOf } from "./function";

export const getNotebookServers = dataSourceFunction({
  name: "getNotebookServers",
  // Every server carries its password.
  secretResults: ["servers"],
  example: [
    "const servers = aicp.getNotebookServersOutput({ uuid: notebook.uuid });",
    "export const jupyterPassword = servers.apply((r) => r.servers[0]?.password);",
  ].join("\n"),
  declaration: {
    doc:
      "Reads a notebook's servers with their passwords (jupyter token, ssh…). The Notebook resource keeps no password in the state; this reads " +
      "them from the platform when the program runs. Prefer the Output form, which marks every password secret.",
    args: { namespace: namespaceOf("notebook"), uuid: { schema: z.string(), required: true, doc: "uuid of the notebook, e.g. `notebook.uuid`." } },
    results: { servers: { schema: z.array(wire.serverInfo), required: true } },
  },
  async run(context, args) {
    const query = checkedArgs("getNotebookServers", wire.notebookServersQuery, { namespace: args.namespace ?? context.defaultNamespace(), uuid: args.uuid });
    const servers = await context.client.getNotebookServers(query);
    return { servers: servers.map((s) => toCamel(wire.serverInfo, s)) };
  },
});
