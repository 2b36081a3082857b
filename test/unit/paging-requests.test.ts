/**
 * The requests a list walk sends (client/paging.ts), counted and written out
 * by hand: which pages go out at once, where the walk stops, and the bound
 * on a platform that never ends. paging.test.ts checks what comes back;
 * these check what it costs, which the mutation run (stryker.config.mjs)
 * showed nothing else pinned.
 */
import { describe, expect, it } from "vitest";
import { collectAll, findInPages, type Page } from "../../client/paging";

/** A platform of `n` items that states `totalSum` and records each request and how many were in flight at once. */
function platform(n: number, totalSum?: number, serve: (offset: number, limit: number) => number[] = (o, l) => range(o, Math.min(n, o + l))) {
  const calls: Array<[number, number]> = [];
  let inFlight = 0;
  let peak = 0;
  const fetch = async (offset: number, limit: number): Promise<Page<number>> => {
    calls.push([offset, limit]);
    peak = Math.max(peak, ++inFlight);
    await new Promise((r) => setTimeout(r, 2));
    inFlight--;
    return { items: serve(offset, limit), totalSum };
  };
  return { fetch, calls, peak: () => peak };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

describe("collectAll: the requests it sends", () => {
  it("asks once for an empty list", async () => {
    const p = platform(0);
    expect(await collectAll(p.fetch)).toEqual([]);
    expect(p.calls).toEqual([[0, 100]]);
  });

  it("fetches the pages a total_sum of 300 promises at once, then checks the end with one more", async () => {
    const p = platform(300, 300);
    expect(await collectAll(p.fetch)).toHaveLength(300);
    expect(p.calls.map(([o]) => o)).toEqual([0, 100, 200, 300]);
    expect(p.peak()).toBe(2);
  });

  it("checks past a full first page whose total_sum says it is all: the total may lag behind the list", async () => {
    const p = platform(150, 100);
    expect(await collectAll(p.fetch)).toEqual(range(0, 150));
    expect(p.calls.map(([o]) => o)).toEqual([0, 100]);
  });

  it("keeps at most `concurrency` pages in flight: 1,000 items, total_sum stated, 3 at a time", async () => {
    const p = platform(1000, 1000);
    expect(await collectAll(p.fetch, { concurrency: 3 })).toHaveLength(1000);
    expect(p.peak()).toBe(3);
    expect(p.calls).toHaveLength(11);
  });

  it("sends one page at a time when no total is stated", async () => {
    const p = platform(450);
    expect(await collectAll(p.fetch)).toHaveLength(450);
    expect(p.peak()).toBe(1);
    expect(p.calls.map(([o]) => o)).toEqual([0, 100, 200, 300, 400]);
  });

  it("ends at a page shorter than the others, even when the total says more and a later page has items", async () => {
    const p = platform(400, 400, (o, l) => (o === 100 ? range(100, 110) : range(o, Math.min(400, o + l))));
    expect(await collectAll(p.fetch, { concurrency: 1 })).toEqual(range(0, 110));
  });

  it("stops a platform that never ends after maxPages requests past the first (no total), or twice maxPages (a total claimed)", async () => {
    const endless = (o: number, l: number) => range(o, o + l);
    const untold = platform(Infinity, undefined, endless);
    expect(await collectAll(untold.fetch, { maxPages: 5 })).toHaveLength(600);
    expect(untold.calls).toHaveLength(6);
    const told = platform(Infinity, 1_000_000, endless);
    expect(await collectAll(told.fetch, { maxPages: 5 })).toHaveLength(1000);
    expect(told.calls).toHaveLength(10);
  });
});

describe("findInPages: the requests it sends", () => {
  it("walks to the short last page and no further when nothing matches", async () => {
    const p = platform(250);
    expect(await findInPages(p.fetch, (x) => x === -1)).toBeUndefined();
    expect(p.calls.map(([o]) => o)).toEqual([0, 100, 200]);
  });

  it("checks a short first page with one more request, unless a total says it is all", async () => {
    const untold = platform(7);
    expect(await findInPages(untold.fetch, (x) => x === -1)).toBeUndefined();
    expect(untold.calls).toEqual([
      [0, 100],
      [7, 7],
    ]);
    const told = platform(7, 7);
    expect(await findInPages(told.fetch, (x) => x === -1)).toBeUndefined();
    expect(told.calls).toEqual([[0, 100]]);
  });

  it("follows a platform that serves 10 a page, and stops a platform that never ends after maxPages requests", async () => {
    const capped = platform(35, undefined, (o, l) => range(o, Math.min(35, o + Math.min(l, 10))));
    expect(await findInPages(capped.fetch, (x) => x === 34)).toBe(34);
    expect(capped.calls.map(([o]) => o)).toEqual([0, 10, 20, 30]);
    const endless = platform(Infinity, undefined, (o, l) => range(o, o + l));
    expect(await findInPages(endless.fetch, (x) => x === -1, { maxPages: 4 })).toBeUndefined();
    expect(endless.calls).toHaveLength(4);
  });
});
