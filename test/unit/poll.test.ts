/** The one schedule every wait polls on (provider/poll.ts): intervals, the last look, and Ctrl-C. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cancelNow, cancelled } from "../../provider/cancellation";
import { PollSchedule } from "../../provider/poll";

/** The pauses a schedule makes until its last look, in ms of the fake clock. */
async function pausesOf(schedule: PollSchedule): Promise<number[]> {
  const pauses: number[] = [];
  while (!schedule.lastLook) {
    const before = Date.now();
    const paused = schedule.next();
    await vi.runOnlyPendingTimersAsync();
    await paused;
    pauses.push(Date.now() - before);
  }
  return pauses;
}

describe("PollSchedule", () => {
  afterEach(() => vi.useRealTimers());

  it("pauses half again as long each round, up to the maximum, and looks last before the deadline", async () => {
    vi.useFakeTimers();
    expect(await pausesOf(new PollSchedule(10_000, { initialIntervalMs: 1000, maxIntervalMs: 2000 }))).toEqual([1000, 1500, 2000, 2000, 2000]);
  });

  it("keeps one interval when the maximum is below the first", async () => {
    vi.useFakeTimers();
    expect(await pausesOf(new PollSchedule(3000, { initialIntervalMs: 1000, maxIntervalMs: 0 }))).toEqual([1000, 1000, 1000]);
  });

  it("with no time left, the first look is the last", () => {
    expect(new PollSchedule(0, { initialIntervalMs: 1 }).lastLook).toBe(true);
  });

  it("a pause ends on Ctrl-C, with its timer never run", async () => {
    vi.useFakeTimers();
    const schedule = new PollSchedule(60_000, { initialIntervalMs: 30_000 });
    let ended = false;
    const paused = schedule.next().then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    cancelNow();
    await paused;
    expect(ended).toBe(true);
    expect(cancelled()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
