/**
 * The doctor's probes of how the platform behaves (platform-api B2, B5):
 * which resource-group routes it serves, what its list totals mean, and how
 * it writes date-times; and `attempt`, which runs one request of any probe
 * and classifies its answer. cli/doctor.ts runs them and prints the report.
 */
import { randomBytes } from "node:crypto";
import type { AicpClient } from "../client/client";
import { AicpError } from "../client/errors";
import type { Settings } from "../client/config";
import { statedTotal } from "../client/paging";
import { hasZone } from "../client/times";
import type { Finding } from "./doctor";

/** How the platform answered one request. */
export interface Answer {
  ok: boolean;
  /** The body was the platform's envelope (any ret_code). */
  platformAnswered: boolean;
  error?: AicpError;
}

/** Runs one request and classifies its answer; an error that carries a ret_code came in the envelope. */
export async function attempt(request: () => Promise<unknown>): Promise<Answer & { value?: unknown }> {
  try {
    return { ok: true, platformAnswered: true, value: await request() };
  } catch (error) {
    // A configuration mistake (say, a route override naming another placeholder) is a finding too, not a crash.
    const failure = error instanceof AicpError ? error : new AicpError("AICP_CONFIG", (error as Error).message ?? String(error));
    return { ok: false, platformAnswered: failure.retCode !== undefined, error: failure };
  }
}

/**
 * The resource-group routes the platform's documents do not show (platform-api B2; the list only the
 * operator's unreleased SDK sends, B6), probed with an id that cannot exist.
 */
export async function routeFindings(client: AicpClient): Promise<Finding[]> {
  const ghost = `rg-doctor${randomBytes(4).toString("hex")}`;
  const probes = [
    { operation: "getResourceGroup", run: () => client.probeRoute("getResourceGroup", { rg_id: ghost }) },
    { operation: "listResourceGroups", run: () => client.probeRoute("listResourceGroups", {}, { offset: 0, limit: 1 }) },
    { operation: "deleteResourceGroup", run: () => client.probeRoute("deleteResourceGroup", { rg_id: ghost }) },
  ] as const;
  const findings: Finding[] = [];
  for (const probe of probes) {
    const route = client.routes[probe.operation];
    // An override always names {rg_id} (client/config.ts refuses one that does not), so the probe names the non-existent group.
    const answer = await attempt(probe.run);
    const where = `${route.method} ${route.path}`;
    // Any envelope, "not found" included, shows that the platform serves the route.
    if (answer.platformAnswered) {
      findings.push({ check: `route ${probe.operation}`, verdict: "ok", text: `${where} answers (${route.source})` });
    } else {
      findings.push({
        check: `route ${probe.operation}`,
        verdict: "fail",
        text: `${where} (${route.source}) is not served: HTTP ${answer.error?.status ?? "?"}; find the platform's path and override it`,
        set: [`--path 'aicp:routes.${probe.operation}' "<METHOD> <path>"`],
      });
    }
  }
  return findings;
}

/** Asks for the largest page (100) and a page of one: what `counts` and `total_sum` mean, and whether pages are capped lower. */
export async function pagingFinding(client: AicpClient): Promise<Finding> {
  const [large, single] = await Promise.all([attempt(() => client.listTemplates({ limit: 100 })), attempt(() => client.listTemplates({ limit: 1 }))]);
  type Listed = { items: unknown[]; totalSum?: number; counts?: number };
  const big = large.value as Listed | undefined;
  const one = single.value as Listed | undefined;
  if (!big || !one) return { check: "paging totals", verdict: "note", text: `not determined: ${(large.error ?? single.error)?.message ?? "no answer"}` };
  const total = statedTotal(big) ?? statedTotal(one);
  const counts =
    one.counts === undefined
      ? "no counts"
      : one.counts > 1
        ? `counts ${one.counts} for a page of 1 (a total)`
        : `counts ${one.counts} for a page of 1 (the page length)`;
  const parts = [one.totalSum !== undefined ? `total_sum ${one.totalSum}` : "no total_sum", counts];
  const capped = total !== undefined && big.items.length < Math.min(100, total);
  if (capped) parts.push(`pages capped at ${big.items.length}`);
  return {
    check: "paging totals",
    verdict: "ok",
    text: `${parts.join(", ")}; ${total === undefined ? "lists are walked to a short page" : "remaining pages are fetched at once"}`,
  };
}

/** How the platform writes date-times: with their zone, or bare (then the provider learns the zone, or it is configured). */
export async function timeFinding(settings: Settings, client: AicpClient, namespace: string): Promise<Finding> {
  const page = await attempt(() => client.listNotebooks(namespace, { limit: 1 }));
  const first = (page.value as { items: Array<{ created_at?: unknown }> } | undefined)?.items[0];
  const seen = typeof first?.created_at === "string" ? first.created_at : undefined;
  if (settings.platformTimeZone)
    return { check: "time zone", verdict: "ok", text: `configured ${settings.platformTimeZone}${seen ? `; the platform writes e.g. ${seen}` : ""}` };
  if (!seen) return { check: "time zone", verdict: "note", text: "no notebook to look at; the provider learns the zone from its first create" };
  return hasZone(seen)
    ? { check: "time zone", verdict: "ok", text: `date-times carry their zone (${seen})` }
    : {
        check: "time zone",
        verdict: "note",
        text: `date-times come without a zone (${seen}); the provider learns it from its first create (against the platform's clock), or set it`,
        set: ["aicp:platformTimeZone <UTC or +08:00>"],
      };
}
