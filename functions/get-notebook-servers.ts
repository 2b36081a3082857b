/** getNotebookServers: a notebook's servers with their passwords (platform-api A2.3). */
import { z } from "zod";
import { toCamel } from "../client/case";
import { validationError } from "../client/errors";
import * as wire from "../client/wire";
import { camelPath } from "../provider/inputs";
import type { GetNotebookServersArgs, GetNotebookServersResult } from "./types";
import { dataSourceFunction, namespaceOf } from "./function";

export const getNotebookServers = dataSourceFunction<GetNotebookServersArgs, GetNotebookServersResult>({
  // Every server carries its password.
  secretResults: ["servers"],
  declaration: {
    doc:
      "Reads a notebook's servers with their passwords (jupyter token, ssh…). The Notebook resource keeps no password in the state; this reads " +
      "them from the platform when the program runs. Prefer the Output form, which marks every password secret.",
    args: { namespace: namespaceOf("notebook"), uuid: { schema: z.string(), required: true, doc: "uuid of the notebook, e.g. `notebook.uuid`." } },
    results: { servers: { schema: z.array(wire.serverInfo), required: true } },
  },
  async run(context, args) {
    const query = wire.notebookServersQuery.safeParse({ namespace: args.namespace ?? context.defaultNamespace(), uuid: args.uuid });
    if (!query.success) throw validationError("getNotebookServers arguments", query.error.issues, camelPath);
    const servers = await context.client.getNotebookServers(query.data);
    return { servers: servers.map((s) => toCamel(wire.serverInfo, s)) };
  },
});
