/**
 * The dialect switches (documented field by field on `Dialect` in types.ts):
 * their defaults, validation of a change, and the command-line form.
 */
import { z } from "zod";
import { OPERATION_NAMES } from "./routes";
import type { Dialect } from "./types";

/** The default dialect: the reading closest to the public evidence (see Dialect). */
export const DEFAULT_DIALECT: Readonly<Dialect> = Object.freeze({
  prefixes: "aicp",
  absentOperations: [],
  signatureBody: "empty",
  zone: "required",
  counts: "page",
  totalSum: true,
  maxPageSize: 100,
  bareTimeZone: "UTC",
  singleWriteData: "docs",
  envsAsString: false,
  startFailed: "restart",
});

/** The zones accepted by default: the public clients' (xb3, xb2, hb2) and the docs' example (hd1), platform-api B4. */
export const DEFAULT_ZONES: readonly string[] = ["xb3", "xb2", "hb2", "hd1"];

const dialectPatch = z.strictObject({
  prefixes: z.enum(["aicp", "qai", "both"]).optional(),
  absentOperations: z.array(z.enum(OPERATION_NAMES as [string, ...string[]])).optional(),
  signatureBody: z.enum(["empty", "body"]).optional(),
  zone: z.enum(["required", "optional"]).optional(),
  counts: z.enum(["total", "page"]).optional(),
  totalSum: z.boolean().optional(),
  maxPageSize: z.int().min(1).nullable().optional(),
  bareTimeZone: z.enum(["UTC", "+08:00"]).optional(),
  singleWriteData: z.enum(["docs", "object", "array"]).optional(),
  envsAsString: z.boolean().optional(),
  startFailed: z.enum(["restart", "refuse"]).optional(),
});

/** `base` with `patch` applied; throws an Error naming every invalid field. */
export function mergeDialect(base: Readonly<Dialect>, patch: unknown): Dialect {
  const result = dialectPatch.safeParse(patch ?? {});
  if (!result.success) {
    const issues = result.error.issues.map((i) =>
      i.code === "unrecognized_keys" ? `${i.keys.join(", ")}: unknown dialect field` : `${i.path.join(".") || "(root)"}: ${i.message}`,
    );
    throw new Error(`invalid dialect: ${issues.join("; ")}`);
  }
  const defined = Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined)) as Partial<Dialect>;
  return { ...base, ...defined, absentOperations: [...(defined.absentOperations ?? base.absentOperations)] };
}

/**
 * Reads the command-line form `key=value[,key=value]` into a partial dialect.
 * Values `true`, `false` and `null` and numbers are typed; `absentOperations`
 * takes operation names joined by `+` (the comma separates pairs).
 */
export function parseDialectArg(text: string): Partial<Dialect> {
  const out: Record<string, unknown> = {};
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0) throw new Error(`--dialect expects key=value pairs, got '${part}'`);
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (key === "absentOperations") out[key] = raw === "" ? [] : raw.split("+");
    else if (raw === "true" || raw === "false") out[key] = raw === "true";
    else if (raw === "null") out[key] = null;
    else if (/^\d+$/.test(raw)) out[key] = Number(raw);
    else out[key] = raw;
  }
  // Validated here so a typo fails at start, naming the field.
  mergeDialect(DEFAULT_DIALECT, out);
  return out as Partial<Dialect>;
}
