/**
 * The platform's quota as a limit the provider keeps (issue: requests within
 * 2,000 per hour per user, docs/platform-api.md B5): a burst of 429 answers
 * longer than a call's attempts is waited out after each Retry-After, with
 * nothing sent twice and one notice naming the setting; the ceilings on
 * connections and on the request rate hold. Against the emulator over real
 * HTTP; the emulator counts connections and requests itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createClient, resolveSettings } from "../../client/config";
import type { AicpError } from "../../client/errors";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";

const ns = emulatorCredentials.userId;
const body = {
  charge_mode: "elastic" as const,
  duration: 3600,
  user_id: ns,
  namespace: ns,
  image: "jupyter:1",
  image_type: "official" as const,
  name: "quota-nb",
  server_type: "jupyter" as const,
  replica_specs: { specs: "sku-1" },
};

/** The emulator's count of connections and API requests at once (its admin API). */
async function load(emulator: Emulator, method: "GET" | "DELETE" = "GET") {
  const answer = await fetch(`${emulator.url}/__emulator/connections`, { method });
  return ((await answer.json()) as { data: { peak: number; peakInFlight: number } }).data;
}

describe("the request quota", () => {
  let emulator: Emulator;
  const clientWith = (extra: Record<string, string>, notices: string[] = []) =>
    createClient(resolveSettings(emulatorSettings(emulator, extra), {}), { onQuota: (notice) => notices.push(notice) });

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  beforeEach(async () => {
    emulator.clearRequests();
    emulator.clearFaults();
    await load(emulator, "DELETE");
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("waits out a burst of 429 longer than a call's attempts, after each Retry-After, and makes the notebook once", async () => {
    const notices: string[] = [];
    const client = clientWith({}, notices);
    emulator.addFault({ kind: "http", status: 429, retryAfterSeconds: 1, operation: "createNotebook", count: 5 });
    try {
      const created = await client.createNotebook(body);
      expect(
        emulator
          .listNotebooks()
          .filter((n) => n.name === "quota-nb")
          .map((n) => n.uuid),
      ).toEqual([created.uuid]);
      const creates = emulator.requests().filter((r) => r.operation === "createNotebook");
      expect(creates.map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 200]);
      // Each attempt came no sooner than the Retry-After of the answer before it said.
      const gaps = creates.slice(1).map((r, i) => Date.parse(r.time) - Date.parse(creates[i]!.time));
      expect(gaps.every((gap) => gap >= 1000)).toBe(true);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain("aicp:maxRequestsPerSecond");
    } finally {
      await client.close();
    }
  }, 30_000);

  it("gives up once the quota wait is spent, saying which setting lowers the rate", async () => {
    const client = clientWith({ "aicp:quotaWaitSeconds": "1" });
    emulator.addFault({ kind: "http", status: 429, retryAfterSeconds: 1, operation: "listTemplates", count: 10 });
    try {
      const error = (await client.listTemplates({}).catch((e: unknown) => e)) as AicpError;
      expect(error.status).toBe(429);
      expect(error.message).toContain("aicp:maxRequestsPerSecond");
      expect(emulator.requests().filter((r) => r.operation === "listTemplates").length).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("holds no more connections than aicp:maxConnections, however many calls wait", async () => {
    const client = clientWith({ "aicp:maxConnections": "2" });
    emulator.addFault({ kind: "latency", latencyMs: 200, operation: "listTemplates" });
    try {
      const pages = await Promise.all(Array.from({ length: 12 }, () => client.listTemplates({ limit: 1 })));
      expect(pages).toHaveLength(12);
      // API requests at once (the admin calls of this test are not counted).
      expect((await load(emulator)).peakInFlight).toBe(2);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("starts a request's timeout once it has a connection: creates queued behind aicp:maxConnections are not lost to it", async () => {
    const client = clientWith({ "aicp:maxConnections": "1", "aicp:requestTimeoutSeconds": "1" });
    emulator.addFault({ kind: "latency", latencyMs: 600, operation: "createNotebook" });
    try {
      const made = await Promise.allSettled(["queued-a", "queued-b", "queued-c"].map((name) => client.createNotebook({ ...body, name })));
      expect(made.map((m) => m.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect(emulator.requests().filter((r) => r.operation === "createNotebook")).toHaveLength(3);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("waits at least a second after a 429 whose Retry-After says 0, and stops when the wait is spent", async () => {
    const client = clientWith({ "aicp:quotaWaitSeconds": "2" });
    emulator.addFault({ kind: "http", status: 429, retryAfterSeconds: 0, operation: "listTemplates" });
    try {
      const error = (await client.listTemplates({}).catch((e: unknown) => e)) as AicpError;
      expect(error.status).toBe(429);
      // Two waits of at least a second fit in two seconds; without a floor it would send hundreds.
      expect(emulator.requests().filter((r) => r.operation === "listTemplates").length).toBeLessThanOrEqual(3);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("sends no faster than aicp:maxRequestsPerSecond", async () => {
    const client = clientWith({ "aicp:maxRequestsPerSecond": "5" });
    try {
      await Promise.all(Array.from({ length: 6 }, () => client.listTemplates({ limit: 1 })));
      const times = emulator
        .requests()
        .filter((r) => r.operation === "listTemplates")
        .map((r) => Date.parse(r.time))
        .sort((a, b) => a - b);
      expect(times).toHaveLength(6);
      // Six requests at five per second leave a second apart, first to last. The emulator logs arrivals, and the first
      // arrives late by its connection's setup: 800 ms allows for that, where no ceiling puts them all within a few ms.
      expect(times[5]! - times[0]!).toBeGreaterThanOrEqual(800);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("refuses a ceiling that cannot work, naming the setting and the rule", () => {
    expect(() => resolveSettings(emulatorSettings(emulator, { "aicp:maxConnections": "0" }), {})).toThrow(
      /aicp:maxConnections \(or AICP_MAX_CONNECTIONS\) must be a whole number from 1 to 256, got '0'/,
    );
    expect(() => resolveSettings(emulatorSettings(emulator, { "aicp:maxRequestsPerSecond": "fast" }), {})).toThrow(
      /aicp:maxRequestsPerSecond \(or AICP_MAX_REQUESTS_PER_SECOND\) must be a number of requests per second/,
    );
  });
});
