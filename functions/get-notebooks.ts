/** getNotebooks: the notebooks of a namespace (platform-api B1, list notebooks). */
import { z } from "zod";
import { toCamel, toSnake } from "../client/case";
import * as wire from "../client/wire";
import type { PlatformTimeZone } from "../client/times";
import { withoutEnvValues, withoutServerPasswords } from "../provider/secrets";
import { argsOf, checkedArgs, dataSourceFunction, namespaceOf } from "./function";

export const getNotebooks = dataSourceFunction({
  name: "getNotebooks",
  secretResults: [],
  example: 'const { notebooks } = await aicp.getNotebooks({ status: ["Running"] });',
  declaration: {
    doc:
      "Lists notebooks of a namespace, paging through every result unless `offset` or `limit` asks for one page. Server passwords and env values " +
      "are left out (a function's result is not secret in the state; env names are kept): read passwords with getNotebookServersOutput, whose " +
      "passwords are secret. Times carry the platform's zone when it is configured or learned.",
    args: { ...argsOf(wire.listNotebooksQuery), namespace: namespaceOf("notebooks") },
    results: { notebooks: { schema: z.array(wire.notebook), required: true } },
  },
  async run(context, args) {
    const { namespace, ...filters } = args;
    const query = checkedArgs("getNotebooks", wire.listNotebooksQuery, toSnake(wire.listNotebooksQuery, filters));
    const { client } = context;
    const ns = namespace ?? context.defaultNamespace();
    const { offset: _offset, limit: _limit, ...everyPage } = query;
    const onePage = args.offset !== undefined || args.limit !== undefined;
    const items = onePage ? (await client.listNotebooks(ns, query)).items : await client.listAllNotebooks(ns, everyPage);
    return { notebooks: items.map((n) => toCamel(wire.notebook, withZones(withoutSecrets(n), client.timeZone))) };
  },
});

/**
 * A function's result is written to the state in plain text: server passwords
 * and env values (often tokens) are left out; env names stay. Values in an
 * unexpected form cannot be stripped, so they are left out whole.
 */
function withoutSecrets(notebook: wire.Notebook): wire.Notebook {
  const servers = Array.isArray(notebook.servers) ? withoutServerPasswords(notebook.servers) : undefined;
  const envs = Array.isArray(notebook.envs) ? withoutEnvValues(notebook.envs) : undefined;
  return { ...notebook, servers, envs } as wire.Notebook;
}

/** The platform's times with its zone written out when it is known (configured or learned), as the Notebook resource records them. */
function withZones(notebook: wire.Notebook, zone: PlatformTimeZone): wire.Notebook {
  const zoned = Object.fromEntries(timeFields.filter((key) => key in notebook).map((key) => [key, zone.normalise(notebook[key])]));
  return { ...notebook, ...zoned };
}

const timeFields = ["stop_time", "auto_delete_time", "created_at", "updated_at"] as const;
