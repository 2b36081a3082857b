/**
 * Properties of the list walk (client/paging.ts) over platforms fast-check
 * makes up: any number of items, any cap on what one answer serves, any
 * `total_sum` and `counts` each answer claims (true, lagging, overstated, the
 * page length, nonsense), and others inserting objects while the walk runs.
 * What the walk promises:
 * - nothing listed is dropped: every object listed for the whole walk comes
 *   back, once, in list order, and nothing that was never listed does;
 * - `findInPages` finds every such object.
 * Two shapes of platform are outside the promise, by design (the module's
 * comment): a short first page whose `total_sum` equals its length is the
 * whole list, and a page holding nothing new ends the walk (a platform that
 * ignores `offset`), so insertions are kept below a page per request.
 * Deletions by others can shift an object past the walk: that is why "gone"
 * is never concluded from a walk (provider/notebook/listing.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectAll, findInPages, type Page, type PagingOptions } from "../../client/paging";

/** A made-up platform: what each answer serves and claims. */
interface Platform {
  n: number;
  /** The most items one answer serves, whatever the limit asked. */
  cap: number;
  pageSize: number;
  concurrency: number;
  /** total_sum each answer claims: absent, the truth, or a fixed number. */
  totalSum: "absent" | "true" | number;
  /** counts each answer claims: absent, the page length, the truth, or random per answer. */
  counts: "absent" | "page" | "true" | "random";
  /** Objects others insert before each answer, at these positions (below a page, see the module comment). */
  inserts: number[];
}

const platformArb: fc.Arbitrary<Platform> = fc
  .record({
    n: fc.integer({ min: 0, max: 320 }),
    cap: fc.integer({ min: 1, max: 120 }),
    pageSize: fc.integer({ min: 1, max: 130 }),
    concurrency: fc.integer({ min: 1, max: 12 }),
    totalSum: fc.oneof(fc.constantFrom("absent" as const, "true" as const), fc.integer({ min: 0, max: 700 })),
    counts: fc.constantFrom("absent" as const, "page" as const, "true" as const, "random" as const),
    inserts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }).map((xs) => xs.map((x) => Math.floor(x * 1000))),
  })
  .filter((p) => p.cap >= 2 || p.inserts.length === 0);

/** Serves the platform; `seen` is every object it ever listed; `original` the objects present throughout (no one deletes). */
function serve(p: Platform) {
  const list = Array.from({ length: p.n }, (_, i) => `o${i}`);
  const original = [...list];
  const seen = new Set(list);
  let answers = 0;
  let inserted = 0;
  const fetch = async (offset: number, limit: number): Promise<Page<string>> => {
    // At most cap - 1 insertions between two answers: each answer then brings something new.
    const now = p.inserts.slice(answers * (Math.min(p.cap, limit) - 1), (answers + 1) * (Math.min(p.cap, limit) - 1));
    if (answers > 0) for (const at of now) (list.splice(at % (list.length + 1), 0, `new${inserted++}`), seen.add(`new${inserted - 1}`));
    answers++;
    const items = list.slice(offset, offset + Math.min(limit, p.cap));
    const totalSum = p.totalSum === "absent" ? undefined : p.totalSum === "true" ? list.length : p.totalSum;
    const counts = { absent: undefined, page: items.length, true: list.length, random: (offset * 7919 + limit) % 500 }[p.counts];
    return { items, totalSum, counts };
  };
  return { fetch, original, seen, options: { pageSize: p.pageSize, concurrency: p.concurrency } satisfies PagingOptions };
}

/** The one claim the walk believes and a platform can make falsely: a short first page whose total_sum is its length. */
function claimsShortFirstPageIsAll(p: Platform): boolean {
  const first = Math.min(p.n, p.cap, Math.min(p.pageSize, 100));
  return typeof p.totalSum === "number" && p.totalSum === first && first < p.n;
}

describe("collectAll, for any platform", () => {
  it("returns every object of an unchanging list, in order, under any totals and counts claimed", async () => {
    await fc.assert(
      fc.asyncProperty(
        platformArb.map((p) => ({ ...p, inserts: [] })),
        async (p) => {
          fc.pre(!claimsShortFirstPageIsAll(p));
          const { fetch, original, options } = serve(p);
          expect(await collectAll(fetch, options)).toEqual(original);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("drops no object listed for the whole walk while others insert, and returns each object once", async () => {
    await fc.assert(
      fc.asyncProperty(platformArb, async (p) => {
        fc.pre(!claimsShortFirstPageIsAll(p));
        const { fetch, original, seen, options } = serve(p);
        const got = await collectAll(fetch, options);
        expect(new Set(got).size).toBe(got.length);
        expect(got.filter((o) => !seen.has(o))).toEqual([]);
        expect(original.filter((o) => !got.includes(o))).toEqual([]);
        // Objects present throughout keep their order.
        expect(got.filter((o) => o.startsWith("o"))).toEqual(original);
      }),
      { numRuns: 400 },
    );
  });
});

describe("findInPages, for any platform", () => {
  it("finds every object listed for the whole walk, and nothing that is not listed", async () => {
    await fc.assert(
      fc.asyncProperty(platformArb, fc.nat(), async (p, pick) => {
        fc.pre(!claimsShortFirstPageIsAll(p) && p.n > 0);
        const wanted = `o${pick % p.n}`;
        expect(await findInPages(serve(p).fetch, (o) => o === wanted, serve(p).options)).toBe(wanted);
        expect(await findInPages(serve(p).fetch, (o) => o === "never-listed", serve(p).options)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
