/** What an operation handler receives and returns. */
import type { z } from "zod";
import type { Credential } from "../auth";
import { ApiError, validate } from "../errors";
import { coerceQuery } from "../query";
import type { Store } from "../state";

/** One signed, routed API request. */
export interface HandlerContext {
  store: Store;
  /** Decoded path parameters. */
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
}

/** `data` and `counts` of a successful envelope. */
export interface HandlerResult {
  data: unknown;
  counts: number;
}

/** An operation handler; it throws ApiError to answer an error. */
export type Handler = (ctx: HandlerContext) => HandlerResult;

/** The query validated by `schema`, with `extra` (path parameters a schema lists) merged in. */
export function queryOf<T extends z.ZodObject>(schema: T, ctx: HandlerContext, extra: Record<string, string> = {}): z.output<T> {
  return validate(schema, coerceQuery(schema, { ...ctx.query, ...extra }), "query");
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
