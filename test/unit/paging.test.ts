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

describe("paging when the platform serves smaller pages than asked", () => {
  function capped(n: number, cap: number, reportTotal: boolean) {
    const items = Array.from({ length: n }, (_, i) => i);
    const fetch = async (offset: number, limit: number): Promise<Page<number>> => ({
      items: items.slice(offset, offset + Math.min(limit, cap)),
      total: reportTotal ? n : undefined,
    });
    return fetch;
  }

  it("collects everything with or without a total", async () => {
    expect(await collectAll(capped(230, 50, true), { pageSize: 100 })).toEqual(Array.from({ length: 230 }, (_, i) => i));
    expect(await collectAll(capped(230, 50, false), { pageSize: 100 })).toEqual(Array.from({ length: 230 }, (_, i) => i));
  });

  it("finds an item beyond the first short page", async () => {
    expect(await findInPages(capped(230, 50, true), (x) => x === 180, { pageSize: 100 })).toBe(180);
    expect(await findInPages(capped(230, 50, false), (x) => x === 229, { pageSize: 100 })).toBe(229);
  });

  it("ignores a count smaller than what was seen", async () => {
    const items = Array.from({ length: 150 }, (_, i) => i);
    const fetch = async (offset: number, limit: number): Promise<Page<number>> => ({ items: items.slice(offset, offset + limit), total: 0 });
    expect(await collectAll(fetch, { pageSize: 100 })).toHaveLength(150);
    expect(await findInPages(fetch, (x) => x === 149, { pageSize: 100 })).toBe(149);
  });
});
