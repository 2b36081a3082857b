/**
 * What a data-source function is, once, for every front: how it reads the
 * platform (`run`, given the client and the default namespace of whoever
 * calls it), and what the plugin's schema declares of it (its document,
 * arguments, results, and the results kept secret). The TypeScript package
 * runs it in the program with the stack's settings (sdk/functions); the
 * plugin runs it for a program in any language with the settings of the
 * provider instance the call names (plugin/functions.ts). The registry of
 * every function is functions/index.ts.
 */
import { z } from "zod";
import { snakeToCamel } from "../client/case";
import type { AicpClient } from "../client/client";
import type { DeclaredField } from "../client/wire/kind";

/** Where a function runs: the client to read with, and the namespace when the arguments name none. */
export interface FunctionContext {
  readonly client: AicpClient;
  /** The configured user id in lower case; throws AICP_CONFIG when none is configured. */
  defaultNamespace(): string;
}

/** What the schema declares of a function. */
export interface FunctionDeclaration {
  readonly doc: string;
  readonly args: Readonly<Record<string, DeclaredField>>;
  readonly results: Readonly<Record<string, DeclaredField>>;
}

/** One data-source function: its declaration, its results kept secret, and how it reads the platform. */
export interface DataSourceFunction<Args, Result> {
  readonly declaration: FunctionDeclaration;
  /** Result fields the plugin returns as secrets. */
  readonly secretResults: readonly string[];
  run(context: FunctionContext, args: Args): Promise<Result>;
}

/** Declares a function; the type parameters come from `run`. */
export function dataSourceFunction<Args, Result>(described: DataSourceFunction<Args, Result>): DataSourceFunction<Args, Result> {
  return described;
}

/** The fields of a query schema as arguments, camelCase, each required where the query needs it. */
export function argsOf(query: z.ZodObject): Record<string, DeclaredField> {
  const fields = Object.entries(query.shape).map(([name, schema]) => [snakeToCamel(name), { schema, required: !schema.safeParse(undefined).success }]);
  return Object.fromEntries(fields);
}

/** The `namespace` argument, of a function reading the `owner`'s objects. */
export const namespaceOf = (owner: string): DeclaredField => ({
  schema: z.string(),
  doc: `Namespace of the ${owner}. Default: \`aicp:userId\` in lower case.`,
});
