/**
 * Sends one operation to the platform: signs it, applies the request timeout,
 * retries what is safe to retry, and turns every answer that is not a
 * successful envelope into an AicpError.
 *
 * Retry rules: an idempotent call (every read, and writes that set a state) is
 * retried on network failures, timeouts, malformed bodies and 5xx. A
 * non-idempotent call (a create) is retried only when the platform answered
 * 503 with Retry-After, i.e. it said it did not process the request; any
 * other failure surfaces with `outcomeUnknown` so the caller can reconcile
 * instead of creating a duplicate. Attempts and total time are both bounded.
 * A 429 (the quota) said the same for any call, and is waited out apart from
 * the attempts, as long as aicp:quotaWaitSeconds allows.
 */
import { Agent, request } from "undici";
import type { Envelope } from "./wire/common";
import { bodyVerdict, isTimeout, normalisePrefix, prefixVerdict, type Outcome } from "./answers";
import { interpretAnswer, quotaSetting } from "./answer-errors";
import { AicpError, describeRequest, type RequestContext } from "./errors";
import { Pace, Slots } from "./pace";
import { channelHeader, userAgent } from "./user-agent";
import { Learned } from "./dialect";
import { fillPath, type Route } from "./routes";
import { signedQueryString, type BodyHash, type QueryValue } from "./signature";
import { sleep } from "./sleep";

export interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** The two path prefixes the platform's material shows (platform-api B3); signed examples use the first. */
export const pathPrefixes = ["/aicp", "/qai/aicp"] as const;

export interface TransportOptions {
  /** Origin of the API, e.g. https://ai.coreshub.cn */
  readonly baseUrl: string;
  /**
   * Path prefix before every route. When absent, `/aicp` is tried first and
   * `/qai/aicp` once if the first answers like a gateway (platform-api B3).
   */
  readonly pathPrefix?: string;
  /**
   * What the MD5 line of the signature covers on a write. When absent, the
   * empty string first (every public client does so), and the body once if the
   * platform refuses the signature (platform-api B4).
   */
  readonly signatureBody?: BodyHash;
  /** Zone, sent as the `zone` query parameter on every request (a common parameter, platform-api B4). */
  readonly zone?: string;
  readonly credentials: Credentials;
  /** Per-attempt timeout. */
  readonly timeoutMs?: number;
  /** Attempts per call, the first included. */
  readonly maxAttempts?: number;
  /** Upper bound on the time spent retrying one call. */
  readonly retryBudgetMs?: number;
  /** Delay before the first retry; doubles per attempt, with full jitter. */
  readonly retryBaseDelayMs?: number;
  /** Keep-alive connections per origin, at most (default 16). */
  readonly connections?: number;
  /** Most requests per second sent, attempts and retries alike; absent: no ceiling. */
  readonly maxRequestsPerSecond?: number;
  /**
   * How long one call waits in all for the platform's quota: a 429 is retried
   * after its Retry-After (or a backoff) without counting as one of the call's
   * attempts, until this is spent (default 600 s).
   */
  readonly quotaWaitMs?: number;
  /** The User-Agent of every request (client/user-agent.ts); by default this process's front's. */
  readonly userAgent?: string;
  /** Told once per client, the first time the platform answers 429: a line for the user naming the setting that lowers the rate. */
  readonly onQuota?: (notice: string) => void;
  /** Observes every attempt (for tests and benchmarks); must not throw. */
  readonly onAttempt?: (event: AttemptEvent) => void;
}

export interface AttemptEvent {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly attempt: number;
  readonly status?: number;
  readonly error?: string;
  readonly durationMs: number;
}

export interface Call {
  readonly operation: string;
  readonly route: Route;
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, QueryValue | undefined>>;
  readonly body?: unknown;
  /** Whether sending the call twice has the same effect as sending it once. */
  readonly idempotent: boolean;
  /** Told the server's clock (the answer's HTTP Date header, ms) when the call succeeds. */
  readonly onServerDate?: (ms: number) => void;
}

export class Transport {
  private readonly agent: Agent;
  private readonly origin: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retryBudgetMs: number;
  private readonly retryBaseDelayMs: number;
  private readonly quotaWaitMs: number;
  private readonly pace: Pace;
  private readonly slots: Slots;
  private quotaNoticed = false;
  /** The path prefix in use, learned from the first answers unless configured. */
  readonly prefix: Learned<string>;
  /** What the signature's MD5 line covers on writes, learned from the first write unless configured. */
  readonly bodyHash: Learned<BodyHash>;

  constructor(private readonly options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.retryBudgetMs = options.retryBudgetMs ?? 60_000;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 250;
    this.quotaWaitMs = options.quotaWaitMs ?? 600_000;
    this.pace = new Pace(options.maxRequestsPerSecond);
    this.slots = new Slots(options.connections ?? 16);
    this.agent = new Agent({ connections: options.connections ?? 16, keepAliveTimeout: 10_000, connect: { timeout: this.timeoutMs } });
    this.prefix =
      options.pathPrefix === undefined ? new Learned<string>(pathPrefixes[0], pathPrefixes[1]) : new Learned(normalisePrefix(options.pathPrefix), undefined);
    this.bodyHash = options.signatureBody === undefined ? new Learned<BodyHash>("empty", "body") : new Learned(options.signatureBody, undefined);
  }

  /** Sends the call and returns the successful envelope. */
  async send(call: Call): Promise<Envelope> {
    const body = call.body === undefined ? "" : JSON.stringify(call.body);
    const started = Date.now();
    let quotaWaited = 0;
    for (let attempt = 1, sent = 1; ; sent++) {
      const outcome = await this.exchange(call, body, sent);
      if (outcome.envelope) {
        if (outcome.serverDate !== undefined) call.onServerDate?.(outcome.serverDate);
        return outcome.envelope;
      }
      const error = outcome.error!;
      // The quota says "not now", not "failed": waited out apart from the call's attempts, for as long as aicp:quotaWaitSeconds allows.
      if (error.status === 429) {
        // At least a second each time: a Retry-After of 0, negative or in the past must not send again at once, on and on.
        const backoff = Math.min(30_000, this.retryBaseDelayMs * 2 ** Math.min(sent, 10)) * (0.5 + Math.random() / 2);
        const delay = Math.max(1000, outcome.retryAfterMs ?? backoff);
        if (quotaWaited + delay > this.quotaWaitMs) throw error;
        this.noticeQuota(call, delay);
        quotaWaited += delay;
        await sleep(delay);
        continue;
      }
      const delay = this.retryDelay(call, outcome, attempt, started + quotaWaited);
      if (delay === undefined) throw error;
      attempt++;
      await sleep(delay);
    }
  }

  /** Tells the user once that the quota was met, and which setting keeps a run under it. */
  private noticeQuota(call: Call, delayMs: number): void {
    if (this.quotaNoticed) return;
    this.quotaNoticed = true;
    this.options.onQuota?.(
      `The platform's request quota was met (HTTP 429 on ${call.operation}); waiting ${Math.ceil(delayMs / 1000)} s as it asks, then sending again. ` +
        `To stay under it (2,000 requests per hour per user, shared by the account's stacks), set ${quotaSetting}.`,
    );
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * One attempt, adapted to what is known of the platform: an answer proving
   * the prefix or the body convention wrong did nothing, so it is followed by
   * at most one request under the other (see dialect.ts).
   */
  private exchange(call: Call, body: string, attempt: number): Promise<Outcome> {
    return this.prefix.use(
      (prefix) =>
        // Without a body both conventions hash the empty string: a read neither waits for nor teaches the convention.
        body === ""
          ? this.attempt(call, prefix, body, this.bodyHash.current, attempt)
          : this.bodyHash.use((bodyHash) => this.attempt(call, prefix, body, bodyHash, attempt), bodyVerdict),
      prefixVerdict,
    );
  }

  private async attempt(call: Call, prefix: string, body: string, bodyHash: BodyHash, attempt: number): Promise<Outcome> {
    const path = `${prefix}${fillPath(call.route.path, call.pathParams ?? {})}`;
    const ctx: RequestContext = { operation: call.operation, method: call.route.method, path };
    const query = signedQueryString({
      method: ctx.method,
      path: ctx.path,
      query: this.options.zone === undefined ? (call.query ?? {}) : { ...call.query, zone: this.options.zone },
      body,
      bodyHash,
      accessKeyId: this.options.credentials.accessKeyId,
      secretAccessKey: this.options.credentials.secretAccessKey,
    });
    await this.pace.turn();
    // A connection of aicp:maxConnections first: the request's deadline starts once it has one, so a create that waited
    // in this queue and timed out, never sent, cannot read as one that may have been done.
    const release = await this.slots.take();
    const t0 = Date.now();
    const report = (status?: number, error?: string) =>
      this.options.onAttempt?.({ operation: ctx.operation, method: ctx.method, path: ctx.path, attempt, status, error, durationMs: Date.now() - t0 });
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    let serverDate: number | undefined;
    try {
      const response = await request(`${this.origin}${ctx.path}?${query}`, {
        method: ctx.method,
        dispatcher: this.agent,
        headers: {
          accept: "application/json",
          "user-agent": this.options.userAgent ?? userAgent(),
          ...channelHeader,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body || undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      const header = response.headers["retry-after"];
      retryAfter = Array.isArray(header) ? header[0] : header;
      const date = Date.parse(String(response.headers.date ?? ""));
      serverDate = Number.isNaN(date) ? undefined : date;
      text = await response.body.text();
      release();
    } catch (cause) {
      release();
      const timedOut = isTimeout(cause);
      report(undefined, timedOut ? "timeout" : "network");
      const unknown = !call.idempotent;
      const what = timedOut ? `timed out after ${this.timeoutMs} ms` : `failed: ${(cause as Error).message}`;
      const advice = unknown
        ? " The platform may have processed it; the provider reconciles before trying again."
        : " Check aicp:baseUrl and the network, then run again.";
      return {
        transient: true,
        error: new AicpError(timedOut ? "AICP_TIMEOUT" : "AICP_NETWORK", `${describeRequest(ctx)} ${what}.${advice}`, {
          ...ctx,
          outcomeUnknown: unknown,
          cause,
        }),
      };
    }
    report(status);
    return { ...interpretAnswer(call, ctx, status, text, retryAfter), serverDate };
  }

  /** Milliseconds to wait before the next attempt, or undefined to give up. */
  private retryDelay(call: Call, outcome: Outcome, attempt: number, started: number): number | undefined {
    if (!outcome.transient || attempt >= this.maxAttempts) return undefined;
    // A create is retried only when the platform said it did not process it.
    const explicitlyRetryable = outcome.retryAfterMs !== undefined && (outcome.error?.status === 429 || outcome.error?.status === 503);
    if (!call.idempotent && !explicitlyRetryable) return undefined;
    const backoff = Math.random() * Math.min(8_000, this.retryBaseDelayMs * 2 ** (attempt - 1));
    const delay = outcome.retryAfterMs ?? backoff;
    return Date.now() - started + delay > this.retryBudgetMs ? undefined : delay;
  }
}
