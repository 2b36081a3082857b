/**
 * The dialect matrix's cases: each a platform that answers
 * in one plausible way where the public evidence leaves a choice open. The
 * in-process engine runs every one (test/contract/dialect-lifecycles.test.ts);
 * the real engine runs the furthest (test/e2e/dialects.test.ts).
 */
import type { Dialect, Emulator } from "../../emulator";

export interface DialectCase {
  name: string;
  dialect: Partial<Dialect>;
  /** Unknowns on which the client's first guess is wrong: each may cost one request per client. */
  wrongGuesses: number;
  /** Notebooks of others in the namespace first, so the stack's notebook is beyond the first page. */
  seed?: number;
  /** Leave aicp:zone unset. */
  noZone?: boolean;
}

export const dialectCases: DialectCase[] = [
  { name: "default (closest to the public evidence)", dialect: {}, wrongGuesses: 0 },
  { name: "prefix /qai/aicp only", dialect: { prefixes: "qai" }, wrongGuesses: 1 },
  { name: "both prefixes", dialect: { prefixes: "both" }, wrongGuesses: 0 },
  { name: "signature hashes the body of writes", dialect: { signatureBody: "body" }, wrongGuesses: 1 },
  { name: "zone optional, none configured", dialect: { zone: "optional" }, wrongGuesses: 0, noZone: true },
  { name: "counts is the total, no total_sum", dialect: { counts: "total", totalSum: false }, wrongGuesses: 0, seed: 150 },
  { name: "counts is the page length, no total_sum", dialect: { counts: "page", totalSum: false }, wrongGuesses: 0, seed: 150 },
  { name: "no page cap", dialect: { maxPageSize: null }, wrongGuesses: 0, seed: 150 },
  { name: "bare date-times in UTC+8", dialect: { bareTimeZone: "+08:00" }, wrongGuesses: 0 },
  { name: "single-notebook writes answer an object", dialect: { singleWriteData: "object" }, wrongGuesses: 0 },
  { name: "single-notebook writes answer an array", dialect: { singleWriteData: "array" }, wrongGuesses: 0 },
  { name: "envs sent as a string", dialect: { envsAsString: true }, wrongGuesses: 0 },
  {
    name: "furthest from the default",
    dialect: { prefixes: "qai", signatureBody: "body", counts: "page", totalSum: false, bareTimeZone: "+08:00", singleWriteData: "object", envsAsString: true },
    wrongGuesses: 2,
    seed: 150,
  },
];

/** The requests a dialect's adaptation cost since the log was cleared: refusals of a wrong signature guess, gateway 404s of a wrong prefix. */
export function adaptationCost(emulator: Emulator): number {
  return emulator.requests().filter((r) => r.operation !== "admin" && (r.status === 401 || (r.status === 404 && r.retCode === undefined))).length;
}
