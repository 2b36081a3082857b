/**
 * Walking `offset`/`limit` lists. The platform's `counts` is the total number
 * of matches on list operations, so once the first page is in, the remaining
 * pages can be fetched concurrently; without a usable total the walk is
 * sequential and stops at the first short page.
 */

export interface Page<T> {
  readonly items: T[];
  /** Total number of matching items, when the platform reported it. */
  readonly total?: number;
}

export type PageFetcher<T> = (offset: number, limit: number) => Promise<Page<T>>;

export interface PagingOptions {
  /** Items per request. */
  readonly pageSize?: number;
  /** Pages in flight at once after the first (default 10). */
  readonly concurrency?: number;
  /** Safety bound on the number of pages. */
  readonly maxPages?: number;
}

// Ten pages in flight: after the first page (which tells the total), 1,000 items arrive in one round.
const defaults = { pageSize: 100, concurrency: 10, maxPages: 1000 };

/**
 * The platform may serve fewer items per page than asked (its maximum page
 * size is not documented): the first page tells how many it really serves.
 * `counts` is used as the total only when it is at least what was seen (the
 * spec shows operations where it is not a total).
 */
function servedPage<T>(first: Page<T>, pageSize: number): { size: number; total?: number } {
  const size = first.items.length > 0 && first.items.length < pageSize ? first.items.length : pageSize;
  const total = first.total !== undefined && first.total >= first.items.length ? first.total : undefined;
  return { size, total };
}

/** Fetches every page and returns all items in order. */
export async function collectAll<T>(fetchPage: PageFetcher<T>, options: PagingOptions = {}): Promise<T[]> {
  const { pageSize, concurrency, maxPages } = { ...defaults, ...options };
  const first = await fetchPage(0, pageSize);
  if (first.items.length === 0) return [];
  const { size, total } = servedPage(first, pageSize);
  if (total !== undefined) {
    const offsets: number[] = [];
    for (let offset = first.items.length; offset < total && offsets.length < maxPages - 1; offset += size) offsets.push(offset);
    const pages = await mapConcurrent(offsets, concurrency, (offset) => fetchPage(offset, size));
    return [first, ...pages].flatMap((p) => p.items);
  }
  // No usable total: walk until an empty page.
  const items = [...first.items];
  for (let page = 1; page < maxPages; page++) {
    const next = await fetchPage(items.length, size);
    if (next.items.length === 0) break;
    items.push(...next.items);
  }
  return items;
}

/** Walks pages in order until `matches` finds an item; undefined when none does. */
export async function findInPages<T>(fetchPage: PageFetcher<T>, matches: (item: T) => boolean, options: PagingOptions = {}): Promise<T | undefined> {
  const { pageSize, maxPages } = { ...defaults, ...options };
  let size = pageSize;
  let seen = 0;
  for (let page = 0; page < maxPages; page++) {
    const current = await fetchPage(seen, size);
    const found = current.items.find(matches);
    if (found !== undefined) return found;
    if (current.items.length === 0) return undefined;
    if (page === 0) size = servedPage(current, pageSize).size;
    seen += current.items.length;
    const total = current.total !== undefined && current.total >= seen ? current.total : undefined;
    if (total !== undefined && seen >= total) return undefined;
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
