/**
 * Walking `offset`/`limit` lists. The docs say a list answers at most 100
 * items and that callers page with `total_sum`; what `counts` means on a list
 * is not documented, and the spec shows it equal to the page length (platform-api
 * B5). So:
 * - `total_sum` is the total when present;
 * - `counts` is taken as the total only when it cannot be the page length
 *   (it is larger than the page);
 * - with a total, the remaining pages are fetched concurrently; with or
 *   without one, the walk ends only at a page shorter than the pages served,
 *   an empty page or a page with nothing new, so a total that lags or lies
 *   can neither cut the list short nor make the walk run away (unless the
 *   caller asks to end at the total, `endAtTotal`, because an item left out
 *   costs it a lookup, not a wrong answer);
 * - a first page shorter than asked, with no total saying more, is checked
 *   with one more request: the platform may serve fewer than asked.
 * A walk that misses an item proves nothing: "gone" is decided by a direct
 * lookup (see provider/notebook/listing.ts), never by a walk.
 */
import { maxPageSize } from "./wire/common";

export interface Page<T> {
  readonly items: T[];
  /** `total_sum` of the answer, when the platform sent it. */
  readonly totalSum?: number;
  /** `counts` of the answer: a total or the page length, the platform does not say which. */
  readonly counts?: number;
  /** `meta.X_REQUEST_USER` of the answer: whom the platform took the request for (spec 1), when it said. */
  readonly requestUser?: string;
}

export type PageFetcher<T> = (offset: number, limit: number) => Promise<Page<T>>;

export interface PagingOptions {
  /** Items per request, at most 100. */
  readonly pageSize?: number;
  /** Pages in flight at once once the total is known (default 10). */
  readonly concurrency?: number;
  /** Safety bound on the number of pages. */
  readonly maxPages?: number;
  /**
   * End the walk once it holds as many items as a stated total says, where it
   * would otherwise ask once more to see the end. Only for a caller to whom an
   * item the walk leaves out (a total that lags) costs a lookup of its own,
   * never a wrong answer: the shared notebook walks (provider/notebook/listing.ts).
   */
  readonly endAtTotal?: boolean;
}

// Ten pages in flight: after the first page (which tells the total), 1,000 items arrive in one round.
const defaults = { pageSize: maxPageSize, concurrency: 10, maxPages: 1000, endAtTotal: false };

/** The total number of matches a page states, when it states one that can be believed. */
export function statedTotal(page: Page<unknown>): number | undefined {
  const seen = page.items.length;
  if (page.totalSum !== undefined && page.totalSum >= seen) return page.totalSum;
  if (page.counts !== undefined && page.counts > seen) return page.counts;
  return undefined;
}

function settings(options: PagingOptions) {
  const merged = { ...defaults, ...options };
  return { ...merged, pageSize: pageSizeOf(options) };
}

/** The items a walk with these options asks for per request: its first page is `fetchPage(0, pageSizeOf(options))`. */
export function pageSizeOf(options: PagingOptions): number {
  return Math.max(1, Math.min(options.pageSize ?? defaults.pageSize, maxPageSize));
}

/** Identity of a list item, to drop one seen twice when pages shift; by default its JSON text. */
export type ItemKey<T> = (item: T) => string;

/**
 * Keeps the items not seen before; returns how many were new. A page that
 * brings nothing new means the platform repeats itself (it may ignore
 * `offset`), and the walk stops.
 */
function collector<T>(key: ItemKey<T>) {
  const seen = new Set<string>();
  const items: T[] = [];
  const add = (page: Page<T>): number => {
    let fresh = 0;
    for (const item of page.items) {
      const k = key(item);
      if (seen.has(k)) continue;
      seen.add(k);
      items.push(item);
      fresh++;
    }
    return fresh;
  };
  return { items, add };
}

/**
 * Fetches every page and returns all items in order. The walk ends at a page
 * shorter than the pages served, at an empty page, or at a page with nothing
 * new; a stated total only decides which pages may be fetched at once, not
 * where the list ends (a total may lag behind, or overstate), unless
 * `endAtTotal` asks for that.
 */
export async function collectAll<T>(fetchPage: PageFetcher<T>, options: PagingOptions = {}, key: ItemKey<T> = (item) => JSON.stringify(item)): Promise<T[]> {
  const { pageSize, concurrency, maxPages, endAtTotal } = settings(options);
  const { items, add } = collector(key);
  const first = await fetchPage(0, pageSize);
  add(first);
  if (first.items.length === 0) return items;
  const total = statedTotal(first);
  const holdsTotal = () => endAtTotal && total !== undefined && items.length >= total;
  if (holdsTotal()) return items;
  let size = pageSize;
  let last = first;
  let offset = first.items.length;
  if (first.items.length < pageSize) {
    if (total !== undefined && total <= first.items.length) return items;
    // Shorter than asked: the end, unless the platform serves fewer per page (it may ignore limit); one request tells.
    size = first.items.length;
  }
  if (total !== undefined && total > offset) {
    const offsets: number[] = [];
    for (let o = offset; o < total && offsets.length < maxPages - 1; o += size) offsets.push(o);
    // Rounds of `concurrency` pages, judged in order: a total that overstates costs at most one round.
    for (let r = 0; r < offsets.length; r += concurrency) {
      const round = offsets.slice(r, r + concurrency);
      const pages = await mapConcurrent(round, concurrency, (o) => fetchPage(o, size));
      for (const [i, page] of pages.entries()) {
        last = page;
        offset = round[i]! + size;
        if (add(page) === 0 || page.items.length < size || holdsTotal()) return items;
      }
    }
  }
  for (let n = 0; n < maxPages && last.items.length >= size; n++) {
    last = await fetchPage(offset, size);
    offset += size;
    if (add(last) === 0) break;
  }
  return items;
}

/** Walks pages in order until `matches` finds an item; undefined when the walk ends (by the rules of collectAll) without one. */
export async function findInPages<T>(
  fetchPage: PageFetcher<T>,
  matches: (item: T) => boolean,
  options: PagingOptions = {},
  key: ItemKey<T> = (item) => JSON.stringify(item),
): Promise<T | undefined> {
  const { pageSize, maxPages } = settings(options);
  const { add } = collector(key);
  let size = pageSize;
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    const current = await fetchPage(offset, size);
    const found = current.items.find(matches);
    if (found !== undefined) return found;
    if (current.items.length === 0 || add(current) === 0) return undefined;
    if (current.items.length < size) {
      const total = statedTotal(current);
      // Only a short first page may mean a platform that serves fewer than asked.
      if (page > 0 || (total !== undefined && total <= current.items.length)) return undefined;
      size = current.items.length;
    }
    offset += size;
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
