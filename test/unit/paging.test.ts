import { describe, expect, it } from "vitest";
import { collectAll, findInPages, mapConcurrent, type Page } from "../../provider/client/paging";

function catalogue(n: number, reportTotal: boolean) {
  const items = Array.from({ length: n }, (_, i) => i);
  const calls: number[] = [];
  const fetch = async (offset: number, limit: number): Promise<Page<number>> => {
    calls.push(offset);
    return { items: items.slice(offset, offset + limit), total: reportTotal ? n : undefined };
  };
  return { fetch, calls };
}

describe("paging", () => {
  it("collects every item in order using the total", async () => {
    const { fetch, calls } = catalogue(250, true);
    expect(await collectAll(fetch, { pageSize: 100 })).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(calls.sort((a, b) => a - b)).toEqual([0, 100, 200]);
  });

  it("walks sequentially until a short page when there is no total", async () => {
    const { fetch, calls } = catalogue(200, false);
    expect(await collectAll(fetch, { pageSize: 100 })).toHaveLength(200);
    expect(calls).toEqual([0, 100, 200]);
  });

  it("stops finding at the page holding the match", async () => {
    const { fetch, calls } = catalogue(1000, true);
    expect(await findInPages(fetch, (x) => x === 150, { pageSize: 100 })).toBe(150);
    expect(calls).toEqual([0, 100]);
    expect(await findInPages(fetch, (x) => x === 5000, { pageSize: 100 })).toBeUndefined();
  });

  it("keeps at most the given number of calls in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapConcurrent([1, 2, 3, 4, 5, 6, 7], 3, async (x) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return x * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });
});
