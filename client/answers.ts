/**
 * Reading one answer of the platform: whether it is the envelope, what it says
 * about the unknowns being learned (dialect.ts), and what of it may be quoted
 * in an error.
 */
import { errors as undiciErrors } from "undici";
import type { Verdict } from "./dialect";
import type { AicpError } from "./errors";
import { envelope, type Envelope } from "./wire/common";

/** What one attempt came to. */
export interface Outcome {
  envelope?: Envelope;
  /** The answer was the platform's envelope (any ret_code, any status). */
  platformAnswered?: boolean;
  /** The answer's HTTP Date header, in ms. */
  serverDate?: number;
  error?: AicpError;
  transient?: boolean;
  retryAfterMs?: number;
}

/** A configured prefix as `/x/y`: leading slash, no trailing one. */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, "");
  return trimmed.startsWith("/") || trimmed === "" ? trimmed : "/" + trimmed;
}

/**
 * A 404 whose body is not the platform's envelope comes from a gateway in
 * front of the platform: nothing was executed, and the prefix may be wrong.
 * Any envelope proves the prefix right.
 */
export function prefixVerdict(outcome: Outcome): Verdict {
  if (outcome.platformAnswered) return "confirms";
  return outcome.error?.status === 404 ? "refutes" : "silent";
}

/**
 * A write refused for its signature was not executed (platform-api B4).
 * Only a success proves the convention: a 429, a 5xx or a refusal inside the
 * envelope may come from a layer in front of the signature check.
 */
export function bodyVerdict(outcome: Outcome): Verdict {
  const status = outcome.error?.status;
  if (status === 401 || status === 403) return "refutes";
  return outcome.envelope ? "confirms" : "silent";
}

export function parseEnvelope(text: string): Envelope | undefined {
  try {
    const result = envelope.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return (
    name === "TimeoutError" ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}
