/**
 * The rule of each provider setting that has one, in zod (client/config.ts
 * reads the settings and applies them): what a value must be, said so that a
 * failure reads `<key> (or <variable>) <rule>, got '<value>'`.
 */
import { z } from "zod";
import type { configKeys } from "./config-keys";
import { pathProblem } from "./routes";
import { parseZone } from "./times";

type Name = keyof typeof configKeys;

/** The form of a pinned stack identity: what the provider draws (`openssl rand -hex 16`), a uuid, or another long random text. */
export const stackMarkPattern = /^[A-Za-z0-9_-]{16,64}$/;

/** A value as quoted in a message: control characters escaped, long values shortened. Never used for credentials. */
export function shown(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped.length > 120 ? `${escaped.slice(0, 120)}…` : escaped;
}

/**
 * Bounds of aicp:requestTimeoutSeconds. Outside them a timeout cannot work: a
 * few milliseconds fails every request, and a huge value overflows the timer
 * (Node fires it after 1 ms), so every request would fail as a network error
 * that names no setting. The lower bound admits sub-second timeouts against a
 * local emulator.
 */
export const requestTimeoutBounds = { minSeconds: 0.5, maxSeconds: 600 } as const;

/** Bounds of aicp:deleteTimeoutSeconds: up to a day, as customTimeouts allow; fractions admit a local emulator's short windows. */
export const deleteTimeoutBounds = { minSeconds: 0.1, maxSeconds: 86_400 } as const;

/** A number from `min` to `max` of `unit`, given as text. */
function numberWithin(min: number, max: number, unit: string) {
  const rule = `must be a number of ${unit} from ${min} to ${max}`;
  // Number() also takes "Infinity" and "1e9"; the bounds refuse both.
  return z
    .string()
    .transform(Number)
    .pipe(z.number({ error: rule }).min(min, rule).max(max, rule));
}

/** A number of seconds within `bounds`, given as text. */
const seconds = (bounds: { minSeconds: number; maxSeconds: number }) => numberWithin(bounds.minSeconds, bounds.maxSeconds, "seconds");

/** Bounds of aicp:maxRequestsPerSecond: down to one request in 100 seconds; above 1,000 no ceiling could matter. */
export const requestRateBounds = { min: 0.01, max: 1000 } as const;

const connectionRule = "must be a whole number from 1 to 256";
const connectionCount = z.string().regex(/^\d+$/, connectionRule).transform(Number).pipe(z.int().min(1, connectionRule).max(256, connectionRule));

const booleanText = z
  .string()
  .regex(/^(true|false)$/i, 'must be "true" or "false"')
  .transform((value) => value.toLowerCase() === "true");

/**
 * The rule of each setting that has one, in zod; a message says what the
 * value must be, and a failure reads `<key> (or <variable>) <message>, got
 * '<value>'`. The base URL, the routes and the credentials have rules of
 * their own below: what they may hold is never quoted.
 */
export const settingRules = {
  pathPrefix: z.string().superRefine((value, context) => {
    const problem = pathProblem(value, false);
    if (problem) context.addIssue({ code: "custom", message: `must be a path such as /aicp: it ${problem}` });
  }),
  signatureBody: z.enum(["empty", "body"], { error: 'must be "empty" or "body"' }),
  zone: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "must be a zone name such as xb3 (letters, digits, '-' or '_')"),
  platformTimeZone: z.string().refine((value) => parseZone(value) !== undefined, "must be UTC or an offset such as +08:00"),
  stackMark: z.string().regex(stackMarkPattern, "must be 16 to 64 letters, digits, '-' or '_', a random text such as `openssl rand -hex 16` prints"),
  requestTimeoutSeconds: seconds(requestTimeoutBounds),
  deleteTimeoutSeconds: seconds(deleteTimeoutBounds),
  maxRequestsPerSecond: numberWithin(requestRateBounds.min, requestRateBounds.max, "requests per second"),
  maxConnections: connectionCount,
  quotaWaitSeconds: seconds({ minSeconds: 0, maxSeconds: 3600 }),
  allowInsecureHttp: booleanText,
  skipCredentialsValidation: booleanText,
  // The user id is the default namespace, one path segment of most routes.
  userId: z
    .string()
    .refine((value) => !/[\s\p{Cc}]/u.test(value), "must not contain whitespace (it is the default namespace, such as usr-abc123)")
    .refine((value) => !/[/\\]/.test(value), "must not contain '/' or '\\' (it is the default namespace, such as usr-abc123)")
    .refine((value) => value !== "." && value !== "..", "must not be '.' or '..' (it is the default namespace, such as usr-abc123)")
    .refine((value) => value.length <= 253, "must be at most 253 characters (it is the default namespace, such as usr-abc123)"),
} satisfies { [K in Name]?: z.ZodType<unknown, string> };
