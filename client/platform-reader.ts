/**
 * What every request of the client shares: the route table, the transport
 * (signing, retries, the platform's dialect), paging options and the zone of
 * the platform's bare times, with sending one operation and reading one page
 * of a list. The operations themselves are AicpClient's (client.ts); a
 * data-source function that reads a list the client does not name declares it
 * in its own file and reads it with {@link PlatformReader.readPage} and
 * {@link PlatformReader.readEvery} (functions/function.ts).
 */
import type { z } from "zod";
import { parseList, toQuery, validate } from "./parse";
import { collectAll, type Page, type PagingOptions } from "./paging";
import { resolveRoutes, type OperationName, type RouteTable } from "./routes";
import { Transport, type TransportOptions } from "./transport";
import type { BodyHash, QueryValue } from "./signature";
import { PlatformTimeZone } from "./times";

export interface ClientOptions extends TransportOptions {
  /** Route overrides, `{operation: "METHOD /path"}` (see routes.ts). */
  readonly routes?: Readonly<Record<string, string>>;
  /** Page size and concurrency for list walks. */
  readonly paging?: PagingOptions;
  /** Zone of date-times the platform writes bare, minutes east of UTC; absent: learned (see times.ts). */
  readonly platformTimeZone?: number;
}

/** What the client knows of the platform's dialect so far (see dialect.ts and times.ts). */
export interface DialectKnowledge {
  readonly pathPrefix: { readonly value: string; readonly known: boolean };
  readonly signatureBody: { readonly value: BodyHash; readonly known: boolean };
  /** Minutes east of UTC of bare date-times, when configured or learned. */
  readonly platformTimeZone?: number;
  /** Requests sent again because an answer proved a guess wrong. */
  readonly extraRequests: number;
}

/** One call of an operation: its path parameters, its validated input, and whether a retry is safe. */
export interface Request<S extends z.ZodType | undefined> {
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly schema?: S;
  readonly input?: unknown;
  /** Send the validated input as the query string instead of the body. */
  readonly asQuery?: boolean;
  readonly idempotent: boolean;
  /** Told the server's clock when the call succeeds (see Call.onServerDate). */
  readonly onServerDate?: (ms: number) => void;
}

/**
 * A list operation, as a data-source function declares it: its route's name
 * (client/routes.ts), the rule of its query (with `offset` and `limit`), the
 * rule of its items, and what tells two items apart across pages.
 */
export interface ListOperation<Q extends z.ZodObject, T extends z.ZodType> {
  readonly operation: OperationName;
  readonly query: Q;
  readonly item: T;
  readonly keyOf: (item: z.output<T>) => string;
}

export class PlatformReader {
  readonly routes: RouteTable;
  /** The zone of bare date-times, configured or learned from create answers. */
  readonly timeZone: PlatformTimeZone;
  protected readonly transport: Transport;
  protected readonly paging: PagingOptions;

  constructor(options: ClientOptions) {
    this.routes = resolveRoutes(options.routes);
    this.transport = new Transport(options);
    this.paging = options.paging ?? {};
    this.timeZone = new PlatformTimeZone(options.platformTimeZone);
  }

  /** What has been learned of the platform's dialect in this process. */
  dialect(): DialectKnowledge {
    const { prefix, bodyHash } = this.transport;
    return {
      pathPrefix: { value: prefix.current, known: prefix.known },
      signatureBody: { value: bodyHash.current, known: bodyHash.known },
      platformTimeZone: this.timeZone.offset,
      extraRequests: prefix.extraRequests + bodyHash.extraRequests,
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** One page of a declared list; its query is checked before anything is sent. */
  async readPage<Q extends z.ZodObject, T extends z.ZodType>(
    list: ListOperation<Q, T>,
    query: z.input<Q>,
    pathParams?: Record<string, string>,
  ): Promise<Page<z.output<T>>> {
    return this.page(list.operation, list.query, query, list.item, pathParams);
  }

  /** Every item of a declared list matching `query` (its `offset` and `limit` left aside), paging concurrently. */
  async readEvery<Q extends z.ZodObject, T extends z.ZodType>(
    list: ListOperation<Q, T>,
    query: z.input<Q>,
    pathParams?: Record<string, string>,
  ): Promise<z.output<T>[]> {
    return collectAll((offset, limit) => this.page(list.operation, list.query, { ...query, offset, limit }, list.item, pathParams), this.paging, list.keyOf);
  }

  /**
   * Sends one read-only request on a route and returns the envelope's data,
   * without the fallbacks of the operation methods; for first-contact checks
   * of routes no public source shows (see cli/doctor.ts).
   */
  async probeRoute(operation: OperationName, pathParams: Readonly<Record<string, string>> = {}, query: Record<string, QueryValue> = {}): Promise<unknown> {
    const env = await this.transport.send({ operation, route: this.routes[operation], pathParams, query, idempotent: true });
    return env.data;
  }

  // ---- plumbing ----

  protected async page<T extends z.ZodType>(
    operation: OperationName,
    querySchema: z.ZodType,
    query: unknown,
    itemSchema: T,
    pathParams?: Record<string, string>,
  ): Promise<Page<z.output<T>>> {
    const q = validate(operation, querySchema, query);
    const env = await this.transport.send({ operation, route: this.routes[operation], pathParams, query: toQuery(q), idempotent: true });
    // A list without its data is not an empty list: reading it as one would make live objects look gone.
    const items = parseList(operation, itemSchema, env.data);
    return { items, totalSum: env.total_sum ?? undefined, counts: env.counts ?? undefined, requestUser: env.meta?.X_REQUEST_USER || undefined };
  }

  /** Sends one operation through the transport; subclasses add operations the shipped client does not need (test/support/platform-writer.ts). */
  protected async send<S extends z.ZodType | undefined>(operation: OperationName, request: Request<S>): Promise<unknown> {
    const input = request.schema ? validate(operation, request.schema, request.input) : request.input;
    const env = await this.transport.send({
      operation,
      route: this.routes[operation],
      pathParams: request.pathParams,
      query: request.asQuery ? toQuery(input) : undefined,
      body: request.asQuery ? undefined : input,
      idempotent: request.idempotent,
      onServerDate: request.onServerDate,
    });
    return env.data;
  }
}
