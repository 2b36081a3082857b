/**
 * Fault injection. Faults apply to API routes only, after routing (so a fault
 * can name its operation) and BEFORE the signature check and the handler: a
 * faulted request never changes state (except latency, which then handles the
 * request normally), and a fault fires even for a badly signed request. A
 * latency delay holds whatever answer the request gets; for a request that
 * goes on it runs once the body is read (see http.ts), so the request is
 * handled even if its client gives up meanwhile, as on a slow platform.
 *
 * When several faults match, every matching latency fault adds its delay, and
 * the first matching terminal fault (http, retCode, malformed, drop), in the
 * order they were added, decides the answer. A fault with a count is spent
 * only when it actually fires (its probability drawn), and removed at 0.
 */
import { z } from "zod";
import { OPERATION_NAMES } from "./routes";
import type { FaultSpec } from "./types";

/** Validates a FaultSpec sent to the admin API. */
export const faultSpecSchema = z
  .strictObject({
    kind: z.enum(["latency", "http", "retCode", "malformed", "drop"]),
    operation: z.enum(OPERATION_NAMES as [string, ...string[]]).optional(),
    count: z.int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
    latencyMs: z.int().min(0).max(600_000).optional(),
    status: z.int().min(100).max(599).optional(),
    retryAfterSeconds: z.int().min(0).optional(),
    retCode: z.int().optional(),
    message: z.string().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.kind === "latency" && f.latencyMs === undefined) ctx.addIssue({ code: "custom", path: ["latencyMs"], message: "is required for kind latency" });
    if (f.kind === "http" && f.status === undefined) ctx.addIssue({ code: "custom", path: ["status"], message: "is required for kind http" });
    if (f.kind === "retCode" && (f.retCode === undefined || f.retCode === 0)) {
      ctx.addIssue({ code: "custom", path: ["retCode"], message: "is required for kind retCode and must not be 0" });
    }
  });

interface Installed {
  spec: FaultSpec;
  remaining: number | undefined;
}

/** What the server must do with one request. */
export interface FaultDecision {
  latencyMs: number;
  terminal?: FaultSpec;
}

/** The installed faults. */
export class FaultRegistry {
  private faults: Installed[] = [];

  /** Installs a fault; throws on an invalid spec (the message lists the issues). */
  add(spec: FaultSpec): void {
    const result = faultSpecSchema.safeParse(spec);
    if (!result.success) {
      throw new Error(`invalid fault: ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
    }
    this.faults.push({ spec: { ...result.data } as FaultSpec, remaining: result.data.count });
  }

  clear(): void {
    this.faults = [];
  }

  /** Installed faults with their remaining counts. */
  list(): Array<FaultSpec & { remaining?: number }> {
    return this.faults.map((f) => ({ ...f.spec, ...(f.remaining === undefined ? {} : { remaining: f.remaining }) }));
  }

  /** Draws the faults for one request of `operation`, spending counts. */
  decide(operation: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0 };
    for (const f of this.faults) {
      if (f.spec.operation !== undefined && f.spec.operation !== operation) continue;
      if (f.spec.kind !== "latency" && decision.terminal) continue;
      if (Math.random() >= (f.spec.probability ?? 1)) continue;
      if (f.remaining !== undefined) f.remaining--;
      if (f.spec.kind === "latency") decision.latencyMs += f.spec.latencyMs ?? 0;
      else decision.terminal = f.spec;
    }
    this.faults = this.faults.filter((f) => f.remaining === undefined || f.remaining > 0);
    return decision;
  }
}
