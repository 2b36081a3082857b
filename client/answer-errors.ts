/**
 * What an answer that is not a successful envelope means (client/transport.ts):
 * an AicpError that names the operation, the HTTP status, the platform's
 * ret_code, message and request id, with advice where the status points at a
 * setting; whether another attempt may help; and whether the request may
 * have been carried out.
 */
import { parseEnvelope, parseRetryAfter, type Outcome } from "./answers";
import { AicpError, describeAnswer, describeRequest, type RequestContext } from "./errors";
import type { Call } from "./transport";
import type { Envelope } from "./wire/common";

const retryableStatus = new Set([429, 500, 502, 503, 504]);
const maxQuotedBytes = 200;

/** The setting that keeps a run under the platform's quota, as messages name it. */
export const quotaSetting = "aicp:maxRequestsPerSecond (or AICP_MAX_REQUESTS_PER_SECOND)";

/** The outcome of one answer, and whether its body was the platform's envelope. */
export function interpretAnswer(call: Call, ctx: RequestContext, status: number, text: string, retryAfter: string | undefined): Outcome {
  const parsed = parseEnvelope(text);
  return { ...classify(call, ctx, status, text, parsed, retryAfter), platformAnswered: parsed !== undefined };
}

function classify(call: Call, ctx: RequestContext, status: number, text: string, parsed: Envelope | undefined, retryAfter: string | undefined): Outcome {
  const facts = {
    status,
    retCode: parsed?.ret_code,
    platformMessage: parsed?.message ?? undefined,
    requestId: parsed?.meta?.X_REQUEST_ID,
  };
  const ok = status >= 200 && status < 300;
  if (ok && parsed && parsed.ret_code === 0) return { envelope: parsed };

  if (ok && !parsed) {
    // AicpError redacts what an echoing proxy put in here (errors.ts).
    const quoted = JSON.stringify(text.slice(0, maxQuotedBytes));
    return {
      transient: true,
      error: new AicpError(
        "AICP_MALFORMED",
        `${describeRequest(ctx)} answered HTTP ${status} with a body that is not the platform's envelope: ${quoted}. ` +
          "A proxy or gateway may be in the way; check aicp:baseUrl and aicp:pathPrefix.",
        { ...ctx, status, outcomeUnknown: !call.idempotent },
      ),
    };
  }
  if (ok) {
    return {
      transient: false,
      error: new AicpError("AICP_RET_CODE", `${describeRequest(ctx)} was refused by the platform: ${describeAnswer(facts)}.`, { ...ctx, ...facts }),
    };
  }
  // A route the platform's own documents do not give (assumed, or known only from a client) may be another path on this platform.
  // (A route the user configured is reported as theirs by the caller: client/parse.ts routeError.)
  if (((status === 404 && !parsed) || status === 405) && !/^(platform-api (A|B1$)|configured$)/.test(call.route.source)) {
    const why =
      call.route.source === "assumed"
        ? "This route is not publicly documented and was assumed"
        : `This route is not in the platform's documents (it is known from ${call.route.source})`;
    return {
      transient: false,
      error: new AicpError(
        "AICP_ROUTE",
        `${describeRequest(ctx)} answered ${describeAnswer(facts)}. ${why}; ` +
          `if the platform uses another path, set it with \`pulumi config set --path 'aicp:routes.${call.operation}' "<METHOD> <path>"\`.`,
        { ...ctx, ...facts },
      ),
    };
  }
  const advice =
    status === 401 || status === 403
      ? " Check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID / QY_SECRET_ACCESS_KEY)."
      : /\bzone\b/i.test(facts.platformMessage ?? "")
        ? " Set aicp:zone (or AICP_ZONE) to the zone of your account, e.g. xb3; `pulumi-aicp doctor` checks it."
        : status === 429
          ? ` The platform's request quota was met, for longer than aicp:quotaWaitSeconds allows; retry later, or lower the rate with ${quotaSetting}.`
          : status === 413
            ? " The request body is larger than the platform accepts, and nothing was processed: shorten the largest inputs (pip, conda, apt, " +
              "customFirst, customSecond, envs) or move them into the image."
            : status >= 500
              ? " The platform failed; retry later and quote the request id to support if it persists."
              : "";
  const retryAfterMs = parseRetryAfter(retryAfter);
  // Only 429, or 503 with Retry-After, say the request was not processed; a
  // gateway's 5xx may come after the platform did the work.
  const notProcessed = status === 429 || (status === 503 && retryAfterMs !== undefined) || status < 500;
  return {
    transient: retryableStatus.has(status),
    retryAfterMs,
    error: new AicpError("AICP_HTTP", `${describeRequest(ctx)} failed: ${describeAnswer(facts)}.${advice}`, {
      ...ctx,
      ...facts,
      outcomeUnknown: !call.idempotent && !notProcessed,
    }),
  };
}
