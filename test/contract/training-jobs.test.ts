/**
 * getTrainingJobs against the emulator over real HTTP, from the TypeScript
 * package, with its configuration read from the stack config (PULUMI_CONFIG)
 * as in a program. The expected jobs are the ones this test made; the time
 * bounds are written by the test from the emulator's clock (bare UTC, the
 * emulator's default zone), not by the code under test.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import type { AicpError } from "../../client/errors";
import * as aicp from "../../sdk";
import { createTrainingJob, emulatorConfig, startTestEmulator } from "../support/emulator";

/** `ms` as the platform's filters take a time: "YYYY-MM-DD HH:MM:SS", here in UTC. */
const platformTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

function resolve<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((done) => output.apply((v) => done(v)));
}

describe("getTrainingJobs", () => {
  let emulator: Emulator;
  const early = Array.from({ length: 102 }, (_, i) => `early-${String(i).padStart(3, "0")}`);
  let between: number;
  let lateAt: number;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // The emulator writes bare times in UTC (its default): configured so, each createdAt carries the zone.
    const config = { ...Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value])), "aicp:platformTimeZone": "UTC" };
    process.env.PULUMI_CONFIG = JSON.stringify(config);
    for (const name of early) await createTrainingJob(emulator, name, [{ replica_type: "Worker", replicas: 1 }]);
    between = emulator.clock.advance(2 * 86_400_000);
    lateAt = emulator.clock.advance(60_000);
    await createTrainingJob(emulator, "late-job", [{ replica_type: "Worker", replicas: 1 }], "tfjobs");
  });

  afterAll(async () => {
    delete process.env.PULUMI_CONFIG;
    await emulator?.close();
  });

  it("pages through every job of the namespace (more than one page of 100)", async () => {
    const { jobs } = await aicp.getTrainingJobs();
    expect(jobs.map((j) => j.name).sort()).toEqual([...early, "late-job"].sort());
    const late = jobs.find((j) => j.name === "late-job")!;
    expect(late.endpoint).toBe("tfjobs");
    expect(late.uuid).toMatch(/^tn-/);
    // With the zone configured, a time carries it and names the instant the job was made.
    expect(late.createdAt).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
    expect(Date.parse(late.createdAt!)).toBe(Math.floor(lateAt / 1000) * 1000);
  });

  it("reads one page when offset or limit is given", async () => {
    emulator.clearRequests();
    const { jobs } = await aicp.getTrainingJobs({ offset: 100, limit: 5 });
    expect(jobs).toHaveLength(3);
    expect(emulator.requests().filter((r) => r.operation === "listTrainingJobs")).toHaveLength(1);
  });

  it("bounds the jobs by when they were created, in both forms", async () => {
    const after = await aicp.getTrainingJobs({ startAt: platformTime(between) });
    expect(after.jobs.map((j) => j.name)).toEqual(["late-job"]);
    const before = await resolve(aicp.getTrainingJobsOutput({ endAt: pulumi.output(platformTime(between)) }));
    expect(before.jobs.map((j) => j.name).sort()).toEqual(early);
  });

  it("rejects an argument it does not declare, and a time that does not exist, before any request", async () => {
    emulator.clearRequests();
    const misspelt = (await aicp.getTrainingJobs({ start: "2026-11-01 00:00:00" } as aicp.GetTrainingJobsArgs).catch((e: unknown) => e)) as AicpError;
    expect(misspelt.code).toBe("AICP_VALIDATION");
    expect(misspelt.message).toContain("start");
    const impossible = (await aicp.getTrainingJobs({ startAt: "2026-02-31 25:00:00" }).catch((e: unknown) => e)) as AicpError;
    expect(impossible.code).toBe("AICP_VALIDATION");
    expect(impossible.message).toContain("startAt");
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  });

  it("rejects a time in another form naming the argument, before any request", async () => {
    emulator.clearRequests();
    const error = (await aicp.getTrainingJobs({ startAt: "2026-11-01T00:00:00Z" }).catch((e: unknown) => e)) as AicpError;
    expect(error.code).toBe("AICP_VALIDATION");
    expect(error.message).toContain("startAt");
    expect(error.message).toContain("YYYY-MM-DD HH:MM:SS");
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  });
});
