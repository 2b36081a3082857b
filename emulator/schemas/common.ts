/**
 * Building blocks of the emulator's request schemas. Bodies are strict: an
 * unknown field is a 400 naming it, because a stand-in stricter than the
 * platform catches client mistakes. Queries are not: names an operation does
 * not model are ignored (see query.ts), as the platform ignores them.
 */
import { z } from "zod";

/** A string with at least one non-blank character. */
export const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must not be empty");

/** 0 or 1, the platform's integer flag. */
export const flag = z.union([z.literal(0), z.literal(1)], { error: "must be 0 or 1" });

/** A list whose values are unique (platform-api A4.2: custom_gpu_list). */
export function uniqueList<T extends z.ZodType>(item: T) {
  return z.array(item).refine((xs) => new Set(xs.map((x) => JSON.stringify(x))).size === xs.length, "must not contain duplicates");
}

/** A notebook uuid: at most 36 characters (platform-api A2.2, part 8). */
export const notebookUuid = nonEmpty.pipe(z.string().max(36, "must be at most 36 characters"));

/** A date-time: ISO 8601 with or without a zone, or "YYYY-MM-DD HH:MM:SS" (the form the SDK's filters use). */
export const dateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i, "must be a date-time such as 2030-12-31T18:00:00Z")
  .refine(isRealDateTime, "must be a real date and time");

function isRealDateTime(value: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!parts) return true; // the format rule reports it
  const [y, m, d, hh, mm, ss] = parts.slice(1).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d && hh < 24 && mm < 60 && ss < 60;
}

/**
 * Paging of list queries: offset default 0, limit default 10 (platform-api A4.5 and
 * part 8). No upper bound: the platform caps a page silently (the
 * `maxPageSize` switch), it does not refuse a large limit.
 */
export const paging = {
  offset: z.int().min(0, "must be 0 or more").default(0),
  limit: z.int().min(1, "must be at least 1").default(10),
};

/** Run cross-field rules even when another field failed, so every broken rule is reported at once. */
export const reportAlways = { when: () => true } as const;

/** `charge_mode` and its `duration` rule (platform-api A4.2 and part 8). */
export const chargeMode = z.enum(["elastic", "monthly"]);

/** Adds the spec's duration rule: 3600 for elastic, 1 to 60 months for monthly. */
export function checkDuration(body: { charge_mode?: unknown; duration?: unknown }, ctx: z.RefinementCtx, monthly = true): void {
  if (typeof body.duration !== "number") return;
  if (body.charge_mode === "elastic" && body.duration !== 3600) {
    ctx.addIssue({ code: "custom", path: ["duration"], message: "must be 3600 when charge_mode is elastic" });
  }
  if (monthly && body.charge_mode === "monthly" && (body.duration < 1 || body.duration > 60)) {
    ctx.addIssue({ code: "custom", path: ["duration"], message: "must be a number of months from 1 to 60 when charge_mode is monthly" });
  }
}

/** Image types (platform-api A4.2). */
export const imageType = z.enum(["official", "user", "custom"]);
