/**
 * Paging over every plausible meaning of the list totals (platform-api B5):
 * `total_sum` present or not, `counts` the total or the page length, pages
 * capped below what was asked.
 */
import { describe, expect, it } from "vitest";
import { collectAll, findInPages, mapConcurrent, statedTotal, type Page } from "../../client/paging";

type Totals = "total_sum" | "counts-total" | "counts-page" | "none";

/** A list of `n` items as a platform of the given dialect serves it. */
function list(n: number, totals: Totals, cap = 100) {
  const items = Array.from({ length: n }, (_, i) => i);
  const calls: Array<[number, number]> = [];
  const fetch = async (offset: number, limit: number): Promise<Page<number>> => {
    calls.push([offset, limit]);
    const page = items.slice(offset, offset + Math.min(limit, cap));
    if (totals === "total_sum") return { items: page, totalSum: n, counts: page.length };
    if (totals === "counts-total") return { items: page, counts: n };
    if (totals === "counts-page") return { items: page, counts: page.length };
    return { items: page };
  };
  return { fetch, calls, all: items };
}

describe("collectAll", () => {
  for (const totals of ["total_sum", "counts-total", "counts-page", "none"] as const) {
    it(`returns all 250 items in order when the list states ${totals}`, async () => {
      const { fetch, all } = list(250, totals);
      expect(await collectAll(fetch)).toEqual(all);
    });
  }

  it("takes counts equal to a full page as no total, and walks on (the defect: 100 of 250)", async () => {
    const { fetch, calls } = list(250, "counts-page");
    expect(await collectAll(fetch)).toHaveLength(250);
    expect(calls.map(([offset]) => offset)).toEqual([0, 100, 200]);
  });

  it("fetches the pages after the first concurrently once total_sum is known: 11 requests for 1,000 items (the last checks the end)", async () => {
    const { fetch, calls } = list(1000, "total_sum");
    expect(await collectAll(fetch)).toHaveLength(1000);
    expect(calls).toHaveLength(11);
  });

  it("walks 1,000 items without any total in 11 requests of at most 100", async () => {
    const { fetch, calls } = list(1000, "none");
    expect(await collectAll(fetch, { pageSize: 500 })).toHaveLength(1000);
    expect(calls).toHaveLength(11);
    expect(Math.max(...calls.map(([, limit]) => limit))).toBe(100);
  });

  it("follows a platform that serves fewer than asked when a total says there is more", async () => {
    const { fetch, all } = list(230, "total_sum", 50);
    expect(await collectAll(fetch)).toEqual(all);
  });

  it("ends at a short first page after one request confirms it, or at once when a total says so", async () => {
    const pageCounts = list(7, "counts-page");
    expect(await collectAll(pageCounts.fetch)).toHaveLength(7);
    expect(pageCounts.calls).toHaveLength(2);
    const totalSum = list(7, "total_sum");
    expect(await collectAll(totalSum.fetch)).toHaveLength(7);
    expect(totalSum.calls).toHaveLength(1);
  });

  for (const cap of [50, 10]) {
    it(`follows a platform that serves ${cap} per page and states no total`, async () => {
      const { fetch, all } = list(61, "counts-page", cap);
      expect(await collectAll(fetch)).toEqual(all);
      expect(await findInPages(fetch, (x) => x === 60)).toBe(60);
    });
  }
});

describe("totals that lie, and platforms that misbehave", () => {
  /** 250 items; the first page states `stated` as total_sum. */
  const lying = (stated: number) => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const calls: number[] = [];
    const fetch = async (offset: number, limit: number): Promise<Page<number>> => {
      calls.push(offset);
      return { items: items.slice(offset, offset + limit), totalSum: stated };
    };
    return { fetch, calls, all: items };
  };

  it("with endAtTotal, ends where total_sum says: 1 request for a full page of 100, 10 for 1,000; a total too small ends it short", async () => {
    for (const [n, requests] of [
      [100, 1],
      [1000, 10],
      [250, 3],
    ] as const) {
      const { fetch, calls, all } = list(n, "total_sum");
      expect(await collectAll(fetch, { endAtTotal: true })).toEqual(all);
      expect(calls, `${n} items`).toHaveLength(requests);
    }
    // counts equal to the page is no total: the walk goes on to the end.
    const pageCounts = list(200, "counts-page");
    expect(await collectAll(pageCounts.fetch, { endAtTotal: true })).toHaveLength(200);
    expect(pageCounts.calls.map(([offset]) => offset)).toEqual([0, 100, 200]);
    // A lagging total of 150 for 250 items: the caller asked to stop there, and gets the 200 its pages brought.
    const { fetch } = lying(150);
    expect(await collectAll(fetch, { endAtTotal: true })).toHaveLength(200);
  });

  it("walks past a total that is too small (it lagged behind)", async () => {
    const { fetch, all } = lying(150);
    expect(await collectAll(fetch)).toEqual(all);
    expect(await findInPages(fetch, (x) => x === 249)).toBe(249);
  });

  it("stops soon after a total that is far too large", async () => {
    const { fetch, calls, all } = lying(100_000);
    expect(await collectAll(fetch)).toEqual(all);
    expect(calls.length).toBeLessThanOrEqual(12);
  });

  it("stops at an empty page in the middle without counting anything twice", async () => {
    const items = Array.from({ length: 300 }, (_, i) => i);
    const fetch = async (offset: number, limit: number): Promise<Page<number>> => ({ items: offset === 100 ? [] : items.slice(offset, offset + limit) });
    const got = await collectAll(fetch);
    expect(new Set(got).size).toBe(got.length);
  });

  it("stops when the platform ignores offset and repeats the first page", async () => {
    const calls: number[] = [];
    const fetch = async (offset: number): Promise<Page<number>> => (calls.push(offset), { items: Array.from({ length: 100 }, (_, i) => i), totalSum: 100_000 });
    expect(await collectAll(fetch)).toHaveLength(100);
    expect(calls.length).toBeLessThanOrEqual(12);
    calls.length = 0;
    expect(await findInPages(fetch, (x) => x === 5000)).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});

describe("findInPages", () => {
  for (const totals of ["total_sum", "counts-total", "counts-page", "none"] as const) {
    it(`finds item 249 of 250 beyond the first page when the list states ${totals}`, async () => {
      const { fetch } = list(250, totals);
      expect(await findInPages(fetch, (x) => x === 249)).toBe(249);
    });
  }

  it("stops at the page holding the match, and at the end when nothing matches", async () => {
    const { fetch, calls } = list(1000, "total_sum");
    expect(await findInPages(fetch, (x) => x === 150)).toBe(150);
    expect(calls.map(([offset]) => offset)).toEqual([0, 100]);
    expect(await findInPages(fetch, (x) => x === 5000)).toBeUndefined();
  });
});

describe("statedTotal", () => {
  it("believes total_sum, and counts only when it exceeds the page", () => {
    expect(statedTotal({ items: [1, 2], totalSum: 9, counts: 2 })).toBe(9);
    expect(statedTotal({ items: [1, 2], counts: 9 })).toBe(9);
    expect(statedTotal({ items: [1, 2], counts: 2 })).toBeUndefined();
    expect(statedTotal({ items: [1, 2, 3, 4, 5, 6], counts: 0 })).toBeUndefined();
    expect(statedTotal({ items: [1, 2], totalSum: 1 })).toBeUndefined();
  });
});

describe("mapConcurrent", () => {
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
