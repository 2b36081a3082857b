/**
 * Wire building blocks shared by every operation: the response envelope, the
 * string rules requests carry, and tolerant readers for response fields.
 *
 * Request schemas are strict (an unknown field is a mistake worth reporting);
 * response schemas are loose (the spec says fields may be absent, and the
 * platform may add new ones).
 */
import { z } from "zod";
import { hasZone, zoneOf } from "../times";

/**
 * A string that must hold at least one non-blank character. It is checked,
 * not trimmed: the value sent is the value the user wrote and state records,
 * so a later comparison with the platform's copy does not see a change.
 */
export const requiredString = z.string().refine((s) => s.trim().length > 0, "must not be empty");

/**
 * Options for cross-field rules: run them even when another field already
 * failed, so a user sees every broken rule at once (zod skips them otherwise).
 * The rules themselves guard against fields of the wrong type.
 */
export const reportAlways = { when: () => true } as const;

/**
 * Free text with a generous bound. The spec sets no limit; an unbounded string
 * is almost always a mistake (a file read into the wrong field) and would be
 * signed and sent whole.
 */
export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/**
 * A value used as one path segment of a URL (namespace, uuid, train name, …).
 * Encoding happens in the client; this only rejects what can never be a name.
 */
export const pathSegment = requiredString
  .max(253, "must be at most 253 characters")
  .refine((s) => s !== "." && s !== "..", "must not be '.' or '..'")
  .refine((s) => !/[/\\]/.test(s), "must not contain '/' or '\\'")
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");

/** A notebook uuid: the spec limits it to 36 characters. */
export const notebookUuid = pathSegment.pipe(z.string().max(36, "must be at most 36 characters"));

/**
 * A date-time as the platform accepts it: ISO 8601 with or without a zone
 * (responses carry none), or "YYYY-MM-DD HH:MM:SS".
 */
export const dateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/, "must be a date-time such as 2026-12-31T18:00:00Z")
  .refine((s) => isRealDateTime(s), "must be a real date and time (month 01-12, a day that exists, hour 00-23)")
  .refine((s) => zoneOf(s) !== undefined || !hasZone(s), "must have a zone within 14 hours of UTC (minutes 00-59), such as +08:00");

function isRealDateTime(value: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  // Text that is not a date-time at all is reported by the format rule.
  if (!parts) return true;
  const [y, m, d, hh, mm, ss = 0] = parts.slice(1).map((p) => Number(p ?? 0)) as number[];
  const probe = new Date(Date.UTC(y!, m! - 1, d!));
  return probe.getUTCMonth() === m! - 1 && probe.getUTCDate() === d && hh! < 24 && mm! < 60 && ss < 60;
}

/** 0 or 1, the platform's boolean flag. */
export const flag = z.union([z.literal(0), z.literal(1)], { error: "must be 0 or 1" });

/** Rejects duplicate entries in a list. */
export function unique<T extends z.ZodType>(item: T) {
  return z.array(item).refine((xs) => new Set(xs).size === xs.length, "must not contain duplicates");
}

/** A response field the provider relies on: absent or null is fine, another type fails the call. */
export const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();

/**
 * A response field the provider does not rely on, typed as the platform
 * documents it. The docs type some fields differently from page to page
 * (platform-api B5), so a value of another type is kept exactly as it came
 * and never fails the call.
 */
export const tolerant = <T extends z.ZodType>(schema: T) => schema.nullish().catch((ctx) => ctx.value as z.output<T>);

/** A number the platform may also send as a numeric string; anything else is kept as it came. */
export const looseNumber = tolerant(
  z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ]),
);

/** A string the platform may also send as a number (e.g. `custom_gpu_memory`); anything else is kept as it came. */
export const looseString = tolerant(z.union([z.string(), z.number().transform(String)]));

/** State, owner and timestamps: fields every platform object carries (platform-api A2.2, A2.3); the provider decides on `status` only. */
export const ownedObjectFields = {
  status: maybe(z.string()),
  reason: tolerant(z.string()),
  user_id: tolerant(z.string()),
  root_user_id: tolerant(z.string()),
  created_at: tolerant(z.string()),
  updated_at: tolerant(z.string()),
};

/** `meta` of the envelope: the request id a user quotes to support. */
export const meta = z.looseObject({
  X_REQUEST_ID: z.string().optional(),
  X_REQUEST_USER: z.string().optional(),
});

/** The envelope every response uses (platform-api A1). */
export const envelope = z.looseObject({
  ret_code: z.number(),
  message: z.string().nullish().catch(undefined),
  data: z.unknown().optional(),
  /** On lists either the total or the page length (platform-api B5): see paging.ts. */
  counts: z.number().nullish().catch(undefined),
  /** The total number of matches on lists, where the platform sends it (platform-api B5). */
  total_sum: z.number().nullish().catch(undefined),
  meta: meta.nullish().catch(undefined),
});
export type Envelope = z.infer<typeof envelope>;

/** The most items one list answer holds (platform-api B5: "at most 100 items per call"). */
export const maxPageSize = 100;

/** Paging query parameters of the list operations. */
export const paging = {
  offset: z.int().min(0, "must be 0 or more").default(0),
  limit: z.int().min(1, "must be at least 1").max(maxPageSize, `must be at most ${maxPageSize}`).default(10),
};
