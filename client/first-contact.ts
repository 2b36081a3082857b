/**
 * What a refused or failed first request says about the configuration, in one
 * line naming the setting to fix. Said the same by `pulumi-aicp doctor`
 * (cli/doctor.ts) and by the check configure makes (provider/settings-check.ts),
 * so a user meets one wording wherever a setting is wrong.
 */
import { configKeys, named, type Settings } from "./config";
import type { AicpError } from "./errors";

/** The zones the public clients use (platform-api B4), offered when a zone is refused. */
const publicZones = "the public clients use xb3, xb2 and hb2";

/** Why the endpoint could not be reached: the socket's error code, or "no answer in time". */
export function unreachableReason(error: AicpError): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return error.code === "AICP_TIMEOUT" ? "no answer in time" : (cause?.code ?? cause?.message ?? error.message);
}

/** The request never got an answer from anything at aicp:baseUrl. */
export function unreachable(error: AicpError): boolean {
  return error.code === "AICP_NETWORK" || error.code === "AICP_TIMEOUT";
}

/** "cannot reach …": nothing answered at the base URL. */
export function unreachableLine(settings: Settings, error: AicpError): string {
  return `cannot reach ${settings.baseUrl}: ${unreachableReason(error)}; check ${named("baseUrl")} and the network`;
}

/**
 * The setting a refusal in the platform's envelope points at: the user id (a
 * namespace or user the keys do not act for), the keys (any other 401 or
 * 403), or the zone; undefined when the refusal names none of them.
 */
export function refusalLine(settings: Settings, error: AicpError): string | undefined {
  const said = error.platformMessage ?? "";
  const answer = `HTTP ${error.status}${error.retCode === undefined ? "" : `, ret_code ${error.retCode}`}, "${said}"`;
  // About the user id only when it says so: it names a namespace, or the configured id itself ("user has no permission" is the keys').
  const aboutUser = settings.userId !== undefined && (/namespace/i.test(said) || said.toLowerCase().includes(settings.userId.toLowerCase()));
  if ((error.status === 401 || error.status === 403) && aboutUser) {
    return `user id '${settings.userId}' refused (${answer}): set ${named("userId")} to the user id of the access key's account`;
  }
  if (error.status === 401 || error.status === 403) {
    const { accessKeyId, secretAccessKey } = configKeys;
    return `credentials refused (${answer}): check ${accessKeyId.key} and ${secretAccessKey.key} (or ${accessKeyId.env} and ${secretAccessKey.env})`;
  }
  if (/zone/i.test(said)) {
    const told = settings.zone ? `zone '${settings.zone}' refused` : "zone required but not set";
    return `${told} (HTTP ${error.status}, "${said}"): set ${named("zone")} to your account's zone (${publicZones})`;
  }
  return undefined;
}

/**
 * Whether the answer says something of the settings: no host or no listener
 * at the base URL, a certificate refused, an answer that is not the
 * platform's, a refusal naming a setting. A timeout, a reset, a 5xx, a 429 or
 * a ret_code that names nothing is the platform's state, not the settings'.
 */
export function definiteAboutSettings(settings: Settings, error: AicpError): boolean {
  if (unreachable(error)) {
    if (error.code === "AICP_TIMEOUT") return false;
    const code = unreachableReason(error);
    return code === "ENOTFOUND" || code === "ECONNREFUSED" || /CERT|TLS|SELF_SIGNED/.test(code);
  }
  if (transientStatus(error.status)) return false;
  if (error.retCode === undefined && error.status !== undefined) return true;
  return refusalLine(settings, error) !== undefined;
}

function transientStatus(status: number | undefined): boolean {
  return status !== undefined && (status >= 500 || status === 429);
}

/** One line for any failed first request: unreachable, not the platform, a refusal naming a setting, or the platform's own words. */
export function firstContactLine(settings: Settings, error: AicpError): string {
  if (unreachable(error)) return unreachableLine(settings, error);
  if (transientStatus(error.status)) {
    return `the platform did not answer normally (HTTP ${error.status}${error.retCode === undefined ? "" : `, ret_code ${error.retCode}`}): try again later`;
  }
  if (error.retCode === undefined && error.status !== undefined) {
    return `${settings.baseUrl} does not answer with the platform's envelope (HTTP ${error.status}): check ${named("baseUrl")}`;
  }
  return refusalLine(settings, error) ?? `the platform refused a plain read: ${error.message}`;
}
