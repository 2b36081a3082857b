/**
 * Wire building blocks shared by every operation: the response envelope, the
 * string rules requests carry, and tolerant readers for response fields.
 *
 * Request schemas are strict (an unknown field is a mistake worth reporting);
 * response schemas are loose (the spec says fields may be absent, and the
 * platform may add new ones).
 */
import { z } from "zod";

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
  .regex(
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
    "must be a date-time such as 2026-12-31T18:00:00Z",
  )
  .refine((s) => isRealDateTime(s), "must be a real date and time (month 01-12, a day that exists, hour 00-23)");

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

/** A response field that may be absent or null. */
export const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();

/** A number the platform may also send as a numeric string. */
export const looseNumber = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

/** State, owner and timestamps: fields every platform object carries (spec 2.2, 2.3). */
export const ownedObjectFields = {
  status: maybe(z.string()),
  reason: maybe(z.string()),
  user_id: maybe(z.string()),
  root_user_id: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
};

/** `meta` of the envelope: the request id a user quotes to support. */
export const meta = z.looseObject({
  X_REQUEST_ID: z.string().optional(),
  X_REQUEST_USER: z.string().optional(),
});

/** The envelope every response uses (spec part 1). */
export const envelope = z.looseObject({
  ret_code: z.number(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
  counts: z.number().nullish(),
  meta: meta.nullish(),
});
export type Envelope = z.infer<typeof envelope>;

/** Paging query parameters of the list operations. */
export const paging = {
  offset: z.int().min(0, "must be 0 or more").default(0),
  limit: z.int().min(1, "must be at least 1").max(1000, "must be at most 1000").default(10),
};
