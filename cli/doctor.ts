/**
 * `pulumi-aicp doctor`: a read-only first contact with a platform endpoint,
 * using the same configuration the provider would. It finds out, before any
 * `pulumi up`, what the public material leaves open (platform-api B2–B5):
 * which path prefix serves signed requests, whether `zone` is required, what
 * a write's signature must hash, which assumed routes exist, what the list
 * totals mean and how date-times are written. Every probe is a read, or a
 * write on an object id that cannot exist, so nothing on the platform changes.
 */
import { randomBytes } from "node:crypto";
import { AicpClient, type ClientOptions } from "../client/client";
import { userAgent } from "../client/user-agent";
import { pathPrefixes } from "../client/transport";
import { named, type Settings } from "../client/config";
import { firstContactLine, refusalLine, unreachable, unreachableLine } from "../client/first-contact";
import { attempt, pagingFinding, routeFindings, timeFinding, type Answer } from "./doctor-probes";

/** One line of the report. */
export interface Finding {
  readonly check: string;
  readonly verdict: "ok" | "note" | "fail";
  readonly text: string;
  /** `pulumi config set` arguments that the finding recommends. */
  readonly set?: readonly string[];
}

/** The report: findings in order, or one fatal line when nothing else can be checked. */
export interface Diagnosis {
  readonly fatal?: string;
  readonly findings: readonly Finding[];
}

type Probe = Omit<ClientOptions, "baseUrl" | "credentials">;

/** Runs every check against the endpoint `settings` name. */
export async function diagnose(settings: Settings): Promise<Diagnosis> {
  const userId = settings.userId;
  const namespace = userId?.toLowerCase();
  const clients: AicpClient[] = [];
  const client = (probe: Probe) => {
    const c = new AicpClient({
      baseUrl: settings.baseUrl,
      credentials: { accessKeyId: settings.accessKeyId ?? "", secretAccessKey: settings.secretAccessKey ?? "" },
      zone: settings.zone,
      routes: settings.routes,
      timeoutMs: Math.min(settings.requestTimeoutMs, 10_000),
      maxAttempts: 1,
      userAgent: userAgent("doctor"),
      ...probe,
    });
    clients.push(c);
    return c;
  };
  try {
    const prefixes = await Promise.all(
      pathPrefixes.map(async (prefix) => ({ prefix, answer: await attempt(() => client({ pathPrefix: prefix }).listTemplates({ limit: 1 })) })),
    );
    const served = prefixes.filter((p) => p.answer.platformAnswered);
    const fatal = firstContactFailure(
      settings,
      prefixes.map((p) => p.answer),
    );
    if (fatal) return { fatal, findings: [] };
    const prefix = settings.pathPrefix ?? served[0]!.prefix;
    const findings: Finding[] = [
      credentialsFinding(settings),
      prefixFinding(
        settings,
        served.map((p) => p.prefix),
        prefixes.map((p) => p.prefix),
      ),
    ];
    findings.push(await zoneFinding(settings, (probe) => client({ pathPrefix: prefix, ...probe })));
    const user = await userFinding(settings, client({ pathPrefix: prefix }));
    findings.push(user);
    if (namespace && user.verdict === "ok") findings.push(await signatureFinding(settings, namespace, (probe) => client({ pathPrefix: prefix, ...probe })));
    else findings.push({ check: "signature of writes", verdict: "note", text: `not probed: ${namespace ? "the user id is refused" : "no user id"}` });
    findings.push(...(await routeFindings(client({ pathPrefix: prefix }))));
    findings.push(await pagingFinding(client({ pathPrefix: prefix })));
    if (namespace) findings.push(await timeFinding(settings, client({ pathPrefix: prefix }), namespace));
    return { findings };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

/** An answer that proves the signature was accepted: the envelope, and not a refusal, a rate limit or a failure in front of the check. */
function signatureAccepted(answer: Answer): boolean | undefined {
  const status = answer.error?.status;
  if (status === 401 || status === 403) return false;
  if (!answer.platformAnswered || status === 429 || (status !== undefined && status >= 500)) return undefined;
  return true;
}

/** The one line that ends the check: unreachable, no prefix answers, or keys refused (said as configure says them, client/first-contact.ts). */
function firstContactFailure(settings: Settings, answers: Answer[]): string | undefined {
  if (!settings.accessKeyId || !settings.secretAccessKey) {
    return "no credentials: set aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY)";
  }
  const network = answers.find((a) => a.error !== undefined && unreachable(a.error));
  if (network && answers.every((a) => !a.platformAnswered)) return unreachableLine(settings, network.error!);
  const answered = answers.filter((a) => a.platformAnswered);
  if (answered.length === 0) {
    return (
      `${settings.baseUrl} answers neither ${pathPrefixes.join(" nor ")} with the platform's envelope (HTTP ${answers[0]?.error?.status ?? "?"}); ` +
      `check aicp:baseUrl`
    );
  }
  if (answered.some((a) => a.ok)) return undefined;
  // A template list names no namespace: a refusal here is of the keys or the zone, never of the user id.
  const refused =
    answered.find((a) => a.error?.status === 401 || a.error?.status === 403) ?? answered.find((a) => /zone/i.test(a.error?.platformMessage ?? ""));
  const line = refused && refusalLine({ ...settings, userId: undefined }, refused.error!);
  return line ?? `the platform refused a plain read: ${answered[0]!.error!.message}`;
}

function credentialsFinding(settings: Settings): Finding {
  return { check: "credentials", verdict: "ok", text: `accepted for access key ${settings.accessKeyId!.slice(0, 6)}…` };
}

function prefixFinding(settings: Settings, served: string[], tried: readonly string[]): Finding {
  const others = tried.filter((p) => !served.includes(p)).map((p) => `${p}: gateway answer`);
  const text = [`${served.join(" and ")} served`, ...others].join("; ");
  if (settings.pathPrefix && !served.includes(settings.pathPrefix)) {
    return { check: "path prefix", verdict: "fail", text: `${text}; the configured ${settings.pathPrefix} is not`, set: [`aicp:pathPrefix ${served[0]}`] };
  }
  if (!settings.pathPrefix && served[0] !== pathPrefixes[0]) {
    return { check: "path prefix", verdict: "note", text: `${text} (learned per process at the cost of one request)`, set: [`aicp:pathPrefix ${served[0]}`] };
  }
  return { check: "path prefix", verdict: "ok", text };
}

/** Lists one notebook of the user's namespace: the one request every Notebook makes first, refused when the user id is not the keys' account. */
async function userFinding(settings: Settings, client: AicpClient): Promise<Finding> {
  const userId = settings.userId;
  if (!userId) {
    return {
      check: "user id",
      verdict: "fail",
      text: `not set: every Notebook needs it (its namespace is the user id in lower case); set ${named("userId")}`,
      set: ["aicp:userId usr-..."],
    };
  }
  const answer = await attempt(() => client.listNotebooks(userId.toLowerCase(), { offset: 0, limit: 1 }));
  if (answer.ok) return { check: "user id", verdict: "ok", text: `${userId}: its namespace ${userId.toLowerCase()} answers these keys` };
  return { check: "user id", verdict: "fail", text: firstContactLine(settings, answer.error!) };
}

async function zoneFinding(settings: Settings, client: (probe: Probe) => AicpClient): Promise<Finding> {
  const without = await attempt(() => client({ zone: undefined }).listTemplates({ limit: 1 }));
  const required = !without.ok && /zone/i.test(without.error?.platformMessage ?? "");
  if (settings.zone)
    return {
      check: "zone",
      verdict: "ok",
      text: `${settings.zone} accepted; ${required ? "the platform requires a zone" : "the platform answers without one too"}`,
    };
  return required
    ? { check: "zone", verdict: "fail", text: "the platform requires a zone and none is set", set: ["aicp:zone <your zone, e.g. xb3>"] }
    : { check: "zone", verdict: "ok", text: "not set; the platform answers without one" };
}

/** Stops a notebook id that cannot exist under each convention: a signature refusal shows which one the platform checks. */
async function signatureFinding(settings: Settings, namespace: string, client: (probe: Probe) => AicpClient): Promise<Finding> {
  const ghost = `nb-doctor${randomBytes(6).toString("hex")}`;
  const results = await Promise.all(
    (["empty", "body"] as const).map(async (convention) => ({
      convention,
      answer: await attempt(() => client({ signatureBody: convention }).stopNotebooks(namespace, [ghost])),
    })),
  );
  const verdicts = results.map((r) => ({ ...r, accepted: signatureAccepted(r.answer) }));
  const undetermined = verdicts.find((r) => r.accepted === undefined);
  if (undetermined) {
    const status = undetermined.answer.error?.status;
    return {
      check: "signature of writes",
      verdict: "note",
      text: `not determined: the probe was answered ${status === undefined ? undetermined.answer.error?.code : `HTTP ${status}`}; run the doctor again`,
    };
  }
  const accepted = verdicts.filter((r) => r.accepted).map((r) => r.convention);
  const describe = (c: string) => (c === "empty" ? "MD5 of the empty string" : "MD5 of the body");
  if (accepted.length === 0)
    return { check: "signature of writes", verdict: "fail", text: "a write was refused under both conventions; check the key's permissions" };
  const text = `the platform accepts ${accepted.map(describe).join(" and ")} (probed by stopping ${ghost}, which does not exist)`;
  if (settings.signatureBody && !accepted.includes(settings.signatureBody)) {
    return {
      check: "signature of writes",
      verdict: "fail",
      text: `${text}; the configured ${settings.signatureBody} is refused`,
      set: [`aicp:signatureBody ${accepted[0]}`],
    };
  }
  if (!settings.signatureBody && !accepted.includes("empty")) {
    return { check: "signature of writes", verdict: "note", text: `${text}; learned per process at the cost of one request`, set: ["aicp:signatureBody body"] };
  }
  return { check: "signature of writes", verdict: "ok", text };
}

/** The report as printed: a table, then the configuration to set. */
export function render(diagnosis: Diagnosis): string {
  if (diagnosis.fatal) return `doctor: ${diagnosis.fatal}\n`;
  const width = Math.max(...diagnosis.findings.map((f) => f.check.length));
  const lines = diagnosis.findings.map((f) => `${f.verdict.padEnd(4)}  ${f.check.padEnd(width)}  ${f.text}`);
  const sets = diagnosis.findings.flatMap((f) => f.set ?? []);
  if (sets.length > 0) lines.push("", "Configuration to set:", ...[...new Set(sets)].map((s) => `  pulumi config set ${s}`));
  return lines.join("\n") + "\n";
}

/** Exit status: 0 when everything will work, 1 when a finding fails, 2 when the platform cannot be used at all. */
export function exitCode(diagnosis: Diagnosis): number {
  if (diagnosis.fatal) return 2;
  return diagnosis.findings.some((f) => f.verdict === "fail") ? 1 : 0;
}
