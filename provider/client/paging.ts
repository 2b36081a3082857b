/**
 * Walking `offset`/`limit` lists. The docs say a list answers at most 100
 * items and that callers page with `total_sum`; what `counts` means on a list
 * is not documented, and the spec shows it equal to the page length (platform
 * notes §5). So:
 * - `total_sum` is the total when present;
 * - `counts` is taken as the total only when it cannot be the page length
 *   (it is larger than the page);
 * - with a total, the remaining pages are fetched concurrently; without one,
 *   the walk goes on until a page comes back shorter than the pages served.
 * A walk that misses an item proves nothing: "gone" is decided by a direct
 * lookup (see provider/notebook-listing.ts), never by a walk.
 */
import { maxPageSize } from "./wire/common";

export interface Page<T> {
  readonly items: T[];
  /** `total_sum` of the answer, when the platform sent it. */
  readonly totalSum?: number;
  /** `counts` of the answer: a total or the page length, the platform does not say which. */
  readonly counts?: number;
}

export type PageFetcher<T> = (offset: number, limit: number) => Promise<Page<T>>;

export interface PagingOptions {
  /** Items per request, at most 100. */
  readonly pageSize?: number;
  /** Pages in flight at once once the total is known (default 10). */
  readonly concurrency?: number;
  /** Safety bound on the number of pages. */
  readonly maxPages?: number;
}

// Ten pages in flight: after the first page (which tells the total), 1,000 items arrive in one round.
const defaults = { pageSize: maxPageSize, concurrency: 10, maxPages: 1000 };

/** The total number of matches a page states, when it states one that can be believed. */
export function statedTotal(page: Page<unknown>): number | undefined {
  const seen = page.items.length;
  if (page.totalSum !== undefined && page.totalSum >= seen) return page.totalSum;
  if (page.counts !== undefined && page.counts > seen) return page.counts;
  return undefined;
}

function settings(options: PagingOptions) {
  const merged = { ...defaults, ...options };
  return { ...merged, pageSize: Math.max(1, Math.min(merged.pageSize, maxPageSize)) };
}

/**
 * How many items the platform serves per page, judged from the first page: a
 * first page shorter than asked is the end of the list, unless a stated total
 * says there is more (then the platform serves fewer than asked).
 */
function servedSize(first: Page<unknown>, asked: number): number | "end" {
  if (first.items.length >= asked) return asked;
  const total = statedTotal(first);
  return first.items.length > 0 && total !== undefined && total > first.items.length ? first.items.length : "end";
}

/** Fetches every page and returns all items in order. */
export async function collectAll<T>(fetchPage: PageFetcher<T>, options: PagingOptions = {}): Promise<T[]> {
  const { pageSize, concurrency, maxPages } = settings(options);
  const first = await fetchPage(0, pageSize);
  const items = [...first.items];
  const size = servedSize(first, pageSize);
  if (size === "end") return items;
  let last = first;
  const total = statedTotal(first);
  if (total !== undefined) {
    const offsets: number[] = [];
    for (let offset = items.length; offset < total && offsets.length < maxPages - 1; offset += size) offsets.push(offset);
    const pages = await mapConcurrent(offsets, concurrency, (offset) => fetchPage(offset, size));
    for (const page of pages) items.push(...page.items);
    last = pages.at(-1) ?? first;
    if (items.length >= total || last.items.length < size) return items;
  }
  // No total to trust, or fewer items than it said: walk until a short page.
  for (let page = 1; page < maxPages && last.items.length >= size; page++) {
    last = await fetchPage(items.length, size);
    items.push(...last.items);
  }
  return items;
}

/** Walks pages in order until `matches` finds an item; undefined when the walk ends without one. */
export async function findInPages<T>(fetchPage: PageFetcher<T>, matches: (item: T) => boolean, options: PagingOptions = {}): Promise<T | undefined> {
  const { pageSize, maxPages } = settings(options);
  let size = pageSize;
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    const current = await fetchPage(offset, size);
    const found = current.items.find(matches);
    if (found !== undefined) return found;
    if (page === 0) {
      const served = servedSize(current, size);
      if (served === "end") return undefined;
      size = served;
    } else if (current.items.length < size) {
      return undefined;
    }
    offset += current.items.length;
    const total = statedTotal(current);
    if (total !== undefined && offset >= total) return undefined;
  }
  return undefined;
}

/** Maps with at most `limit` promises pending; results keep the input order. */
export async function mapConcurrent<T, R>(inputs: readonly T[], limit: number, fn: (input: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await fn(inputs[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), inputs.length) }, worker));
  return results;
}
