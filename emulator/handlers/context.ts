/** What an operation handler receives and returns, and the helpers they share. */
import type { z } from "zod";
import { ApiError, validate } from "../errors";
import { coerceQuery } from "../query";
import type { Credential } from "../signature";
import type { Store } from "../state";
import type { Dialect } from "../types";
import type { Misbehaviour } from "../misbehaviour";

/** One signed, routed API request. */
export interface HandlerContext {
  store: Store;
  /** Decoded path parameters; `namespace` is the caller's own (tenancy was checked). */
  params: Record<string, string>;
  /** Query without access_key_id and signature; repeated names are arrays. */
  query: Record<string, string | string[]>;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** The credential that signed the request. */
  user: Credential;
  /** Time of the request (ms since the epoch). */
  now: number;
  /** Pending -> Running delay of notebooks. */
  readyDelayMs: number;
  /** The dialect in force for this request. */
  dialect: Dialect;
  /** Query names the operation read; the others are logged as ignored. */
  consumed: Set<string>;
  /** How the platform misbehaves today (off by default). */
  misbehaviour: Misbehaviour;
}

/** `data` and `counts` of a successful envelope, and `total_sum` for list operations. */
export interface HandlerResult {
  data: unknown;
  counts: number;
  /** Number of matches of a list; sent as `total_sum` when the dialect says so. */
  totalSum?: number;
}

/** An operation handler; it throws ApiError to answer an error. */
export type Handler = (ctx: HandlerContext) => HandlerResult;

/** The query validated by `schema`; names it does not model are left for the log's `ignoredParams`. */
export function queryOf<T extends z.ZodObject>(schema: T, ctx: HandlerContext): z.output<T> {
  const { value } = coerceQuery(schema, ctx.query);
  for (const name of Object.keys(value)) ctx.consumed.add(name);
  return validate(schema, value, "query");
}

/** The body validated by `schema`; a missing body is a 400 too. */
export function bodyOf<T extends z.ZodType>(schema: T, ctx: HandlerContext): z.output<T> {
  if (ctx.body === undefined) throw new ApiError(400, 400, "invalid request body: a JSON body is required");
  return validate(schema, ctx.body, "body");
}

/** Compares two values for sorting: numbers numerically, everything else as text. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a ?? "").localeCompare(String(b ?? ""));
}

/**
 * One page of a filtered, sorted list, shaped by the dialect: at most
 * `maxPageSize` items whatever `limit` asks, `counts` the total or the page
 * length, and the total kept for `total_sum` (platform-api B5 "Paging").
 */
export function listPage<T>(ctx: HandlerContext, all: readonly T[], offset: number, limit: number, toWire: (item: T) => unknown): HandlerResult {
  const cap = ctx.dialect.maxPageSize;
  const size = cap === null ? limit : Math.min(limit, cap);
  const data = all.slice(offset, offset + size).map(toWire);
  return { data, ...ctx.misbehaviour.claimed(ctx.dialect.counts === "total" ? all.length : data.length, all.length) };
}
