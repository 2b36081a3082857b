/**
 * What a data-source function is, once, for every front: its document and
 * example, its arguments and results (each a zod rule with its document), the
 * results kept secret, and how it reads the platform (`run`, given the client
 * and the default namespace of whoever calls it). Everything else derives
 * from it: the TypeScript package's types and its Promise and Output forms
 * (tools/sdk-types/functions.mjs writes sdk/functions.generated.ts), the
 * plugin's schema and Invoke (plugin/schema-build.ts, plugin/functions.ts),
 * and through the schema the Python, Go and YAML forms. The registry of every
 * function is functions/index.ts.
 */
import { z } from "zod";
import { snakeToCamel, type Camelized, type SnakeToCamel } from "../client/case";
import type { AicpClient, ListOperation } from "../client/client";
import { validationError } from "../client/errors";
import type { DeclaredField } from "../client/wire/kind";
import { camelPath } from "../provider/inputs";

/** Where a function runs: the client to read with, and the namespace when the arguments name none. */
export interface FunctionContext {
  readonly client: AicpClient;
  /** The configured user id in lower case; throws AICP_CONFIG when none is configured. */
  defaultNamespace(): string;
}

/** A function's fields (arguments or results), by their camelCase names. */
export type DeclaredFields = Readonly<Record<string, DeclaredField>>;

/** What the schema declares of a function. */
export interface FunctionDeclaration<Args extends DeclaredFields = DeclaredFields, Results extends DeclaredFields = DeclaredFields> {
  readonly doc: string;
  readonly args: Args;
  readonly results: Results;
}

type RequiredKeys<F extends DeclaredFields> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];
type OptionalKeys<F extends DeclaredFields> = Exclude<keyof F, RequiredKeys<F>>;
type Flatten<T> = { [K in keyof T]: T[K] };

/** The arguments a program gives, as the declared fields say: camelCase, optional unless required. */
export type ArgValues<F extends DeclaredFields> = Flatten<
  { [K in RequiredKeys<F>]: Camelized<z.input<F[K]["schema"]>> } & { [K in OptionalKeys<F>]?: Camelized<z.input<F[K]["schema"]>> }
>;

/** The results a function returns, as the declared fields say: camelCase, absent where not required. */
export type ResultValues<F extends DeclaredFields> = Flatten<
  { readonly [K in RequiredKeys<F>]: Camelized<z.output<F[K]["schema"]>> } & {
    readonly [K in OptionalKeys<F>]?: Camelized<z.output<F[K]["schema"]>>;
  }
>;

/** One data-source function, as its file describes it. */
export interface DataSourceFunction<Args extends DeclaredFields = DeclaredFields, Results extends DeclaredFields = DeclaredFields> {
  /** Its name: the TypeScript package's export and the plugin's token (`aicp:index:<name>`), as the registry keys it. */
  readonly name: string;
  readonly declaration: FunctionDeclaration<Args, Results>;
  /** A TypeScript use of it, as the package's documentation shows it (`aicp.` is the package). */
  readonly example: string;
  /**
   * Result fields the plugin returns as secrets. The TypeScript package's
   * Output form of such a function is written by hand, to mark each secret
   * value on its own (sdk/functions/).
   */
  readonly secretResults: readonly (keyof Results & string)[];
  run(context: FunctionContext, args: ArgValues<Args>): Promise<ResultValues<Results>>;
}

/**
 * Declares a function; its argument and result types come from the declared
 * fields. An argument it does not declare is refused before any request,
 * naming it, from every front alike (a generated SDK or YAML passes whatever
 * the program wrote): a filter misspelt must not read as "no filter".
 */
export function dataSourceFunction<const Args extends DeclaredFields, const Results extends DeclaredFields>(
  described: DataSourceFunction<Args, Results>,
): DataSourceFunction<Args, Results> {
  const known = z.strictObject(Object.fromEntries(Object.keys(described.declaration.args).map((key) => [key, z.unknown().optional()])));
  return {
    ...described,
    run(context, args) {
      checkedArgs(described.name, known, args ?? {});
      return described.run(context, args ?? {});
    },
  };
}

/** The fields of a query schema as arguments, camelCase, each required where the query needs it. */
export function argsOf<Shape extends z.core.$ZodShape>(
  query: z.ZodObject<Shape>,
): {
  [K in keyof Shape & string as SnakeToCamel<K>]: { schema: Shape[K]; required: undefined extends z.input<Shape[K]> ? false : true; doc: string | undefined };
} {
  const fields = Object.entries(query.shape).map(([name, schema]) => [
    snakeToCamel(name),
    { schema, required: !z.safeParse(schema, undefined).success, doc: z.globalRegistry.get(schema)?.description },
  ]);
  return Object.fromEntries(fields);
}

/** The `namespace` argument, of a function reading the `owner`'s objects. */
export const namespaceOf = (owner: string) =>
  ({
    schema: z.string(),
    doc: `Namespace of the ${owner}. Default: \`aicp:userId\` in lower case.`,
  }) as const;

/**
 * `value` checked by a wire schema, or an AICP_VALIDATION error naming the
 * function and each argument in its camelCase path, before any request.
 */
export function checkedArgs<S extends z.ZodType>(fn: string, schema: S, value: unknown): z.output<S> {
  const checked = schema.safeParse(value);
  if (!checked.success) throw validationError(`${fn} arguments`, checked.error.issues, camelPath);
  return checked.data;
}

/**
 * A declared list (client/platform-reader.ts) read as a function's arguments
 * ask, after checking them (see {@link checkedArgs}): one page when they name
 * `offset` or `limit`, else every item, pages fetched concurrently.
 */
export async function pageOrEvery<Q extends z.ZodObject, T extends z.ZodType>(
  fn: string,
  client: AicpClient,
  list: ListOperation<Q, T>,
  query: z.input<Q>,
  pathParams?: Record<string, string>,
): Promise<z.output<T>[]> {
  checkedArgs(fn, list.query, query);
  const asked: { offset?: unknown; limit?: unknown } = query;
  if (asked.offset !== undefined || asked.limit !== undefined) return (await client.readPage(list, query, pathParams)).items;
  return client.readEvery(list, query, pathParams);
}
