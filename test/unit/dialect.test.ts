/** Learning an unknown of the platform: one probe at a time, one extra request at most, pinned values never move. */
import { describe, expect, it } from "vitest";
import { Learned, type Verdict } from "../../client/dialect";

/** A platform that accepts only `truth`; records every value it was sent. */
function platform(truth: string) {
  const sent: string[] = [];
  const send = async (value: string) => {
    sent.push(value);
    await new Promise((r) => setTimeout(r, 5));
    return value === truth ? "ok" : "refused";
  };
  const judge = (r: string): Verdict => (r === "ok" ? "confirms" : "refutes");
  return { sent, send, judge };
}

describe("Learned", () => {
  it("costs nothing when the first guess is right", async () => {
    const p = platform("/aicp");
    const prefix = new Learned("/aicp", "/qai/aicp");
    expect(await prefix.use(p.send, p.judge)).toBe("ok");
    expect(p.sent).toEqual(["/aicp"]);
    expect(prefix.known).toBe(true);
  });

  it("sends one extra request for the whole process when the guess is wrong, even with ten calls at once", async () => {
    const p = platform("/qai/aicp");
    const prefix = new Learned("/aicp", "/qai/aicp");
    const results = await Promise.all(Array.from({ length: 10 }, () => prefix.use(p.send, p.judge)));
    expect(results).toEqual(Array(10).fill("ok"));
    expect(p.sent.filter((v) => v === "/aicp")).toHaveLength(1);
    expect(p.sent).toHaveLength(11);
    expect(prefix.current).toBe("/qai/aicp");
    expect(prefix.extraRequests).toBe(1);
  });

  it("keeps the guess and reports the first answer when both values are refused", async () => {
    const p = platform("/elsewhere");
    const prefix = new Learned("/aicp", "/qai/aicp");
    expect(await prefix.use(p.send, p.judge)).toBe("refused");
    expect(prefix.current).toBe("/aicp");
    expect(prefix.known).toBe(false);
  });

  it("reports the alternative's outcome when its answer is lost, since it may have been executed", async () => {
    const prefix = new Learned("/aicp", "/qai/aicp");
    const sent: string[] = [];
    const answers: Record<string, string> = { "/aicp": "gateway 404", "/qai/aicp": "timeout, outcome unknown" };
    const result = await prefix.use(
      async (value) => (sent.push(value), answers[value]!),
      (r) => (r === "gateway 404" ? "refutes" : "silent"),
    );
    expect(result).toBe("timeout, outcome unknown");
    expect(sent).toEqual(["/aicp", "/qai/aicp"]);
  });

  it("spends no more requests on the alternative once both were refused", async () => {
    const p = platform("/elsewhere");
    const prefix = new Learned("/aicp", "/qai/aicp");
    await prefix.use(p.send, p.judge);
    await prefix.use(p.send, p.judge);
    await prefix.use(p.send, p.judge);
    expect(p.sent).toEqual(["/aicp", "/qai/aicp", "/aicp", "/aicp"]);
    expect(prefix.extraRequests).toBe(1);
  });

  it("learns nothing from a silent answer and lets the next call probe", async () => {
    const prefix = new Learned("/aicp", "/qai/aicp");
    await prefix.use(
      async () => "timeout",
      () => "silent",
    );
    expect(prefix.known).toBe(false);
    const p = platform("/aicp");
    await prefix.use(p.send, p.judge);
    expect(prefix.known).toBe(true);
  });

  it("never tries another value when configured", async () => {
    const p = platform("/aicp");
    const pinned = new Learned("/qai/aicp", undefined);
    expect(await pinned.use(p.send, p.judge)).toBe("refused");
    expect(p.sent).toEqual(["/qai/aicp"]);
  });
});
