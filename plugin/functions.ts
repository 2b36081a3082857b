/**
 * The data-source functions as the plugin serves them (Invoke), by token:
 * the SDK's own functions (sdk/functions), run with the settings of the
 * provider instance the call names rather than a program's stack config,
 * each with what the schema declares of it (plugin/schema-build.ts): its
 * arguments and results as the wire schemas rule them, and their documents.
 * test/unit/function-declarations.test.ts compares the arguments with the
 * SDK's declared ones.
 */
import { z } from "zod";
import { snakeToCamel } from "../client/case";
import * as wire from "../client/wire";
import type { DeclaredField } from "../client/wire/kind";
import { getNotebookDiskMetrics } from "../sdk/functions/get-notebook-disk-metrics";
import { getNotebookServers } from "../sdk/functions/get-notebook-servers";
import { getNotebooks } from "../sdk/functions/get-notebooks";
import { getResourceTemplates } from "../sdk/functions/get-resource-templates";
import { getTrainingPods } from "../sdk/functions/get-training-pods";

/** A function as the plugin calls it: camelCase arguments in, camelCase result out. */
type PluginFunction = (args: never) => Promise<object>;

/** What the schema declares of a function. */
export interface FunctionDeclaration {
  readonly doc: string;
  readonly args: Readonly<Record<string, DeclaredField>>;
  readonly results: Readonly<Record<string, DeclaredField>>;
}

/** The fields of a query schema as arguments, camelCase, each required where the query needs it. */
function argsOf(query: z.ZodObject): Record<string, DeclaredField> {
  const fields = Object.entries(query.shape).map(([name, schema]) => [snakeToCamel(name), { schema, required: !schema.safeParse(undefined).success }]);
  return Object.fromEntries(fields);
}

const namespaceOf = (owner: string): DeclaredField => ({ schema: z.string(), doc: `Namespace of the ${owner}. Default: \`aicp:userId\` in lower case.` });

/** Each function by its name in the schema (`aicp:index:<name>`), with the result fields kept secret. */
export const functions = {
  getResourceTemplates: {
    call: getResourceTemplates,
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
  },
  getTrainingPods: {
    call: getTrainingPods,
    secretResults: [],
    declaration: {
      doc:
        "Reads the pods of a training job that has not terminated. Containers' env values are left out (they often hold tokens, and a function's " +
        "result is not secret); their names stay.",
      args: {
        namespace: namespaceOf("job"),
        endpoint: { schema: z.string(), required: true, doc: "Job type, e.g. `tfjobs` or `pytorchjobs`." },
        trainName: { schema: z.string(), required: true, doc: "Name of the training job; non-ASCII names are fine." },
      },
      results: { pods: { schema: z.array(wire.pod), required: true, doc: "Kubernetes pods of the job (platform-api A2.1)." } },
    },
  },
  getNotebookDiskMetrics: {
    call: getNotebookDiskMetrics,
    secretResults: [],
    declaration: {
      doc: "Reads the disk metrics of a notebook that has not terminated.",
      args: { namespace: namespaceOf("notebook"), uuid: { schema: z.string(), doc: "uuid of the notebook (or training job, or resource group)." } },
      results: {
        metrics: { schema: z.array(wire.metric), required: true, doc: "The metrics as returned (platform-api A2.5)." },
        usedBytes: { schema: z.number(), doc: "`notebook_zfs_used_bytes`, when the platform reported a value." },
        capacityBytes: { schema: z.number(), doc: "`notebook_zfs_pvc_capacity_bytes`, when reported." },
        availableBytes: { schema: z.number(), doc: "`notebook_zfs_pvc_available_bytes`, when reported." },
      },
    },
  },
  // Every server carries its password.
  getNotebookServers: {
    call: getNotebookServers,
    secretResults: ["servers"],
    declaration: {
      doc:
        "Reads a notebook's servers with their passwords (jupyter token, ssh…). The Notebook resource keeps no password in the state; this reads " +
        "them from the platform when the program runs. Prefer the Output form, which marks every password secret.",
      args: { namespace: namespaceOf("notebook"), uuid: { schema: z.string(), required: true, doc: "uuid of the notebook, e.g. `notebook.uuid`." } },
      results: { servers: { schema: z.array(wire.serverInfo), required: true } },
    },
  },
  getNotebooks: {
    call: getNotebooks,
    secretResults: [],
    declaration: {
      doc:
        "Lists notebooks of a namespace, paging through every result unless `offset` or `limit` asks for one page. Server passwords and env values " +
        "are left out (a function's result is not secret in the state; env names are kept): read passwords with getNotebookServersOutput, whose " +
        "passwords are secret. Times carry the platform's zone when it is configured or learned.",
      args: { ...argsOf(wire.listNotebooksQuery), namespace: namespaceOf("notebooks") },
      results: { notebooks: { schema: z.array(wire.notebook), required: true } },
    },
  },
} as const satisfies Record<string, { call: PluginFunction; secretResults: readonly string[]; declaration: FunctionDeclaration }>;

export type FunctionName = keyof typeof functions;
