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
  /** Pages in flight at once after the first. */
  readonly concurrency?: number;
  /** Safety bound on the number of pages. */
  readonly maxPages?: number;
}

const defaults = { pageSize: 100, concurrency: 4, maxPages: 1000 };

/** Fetches every page and returns all items in order. */
export async function collectAll<T>(fetchPage: PageFetcher<T>, options: PagingOptions = {}): Promise<T[]> {
  const { pageSize, concurrency, maxPages } = { ...defaults, ...options };
  const first = await fetchPage(0, pageSize);
  if (first.items.length < pageSize) return first.items;
  if (first.total !== undefined && first.total >= first.items.length) {
    const offsets: number[] = [];
    for (let offset = pageSize; offset < first.total && offsets.length < maxPages - 1; offset += pageSize) offsets.push(offset);
    const pages = await mapConcurrent(offsets, concurrency, (offset) => fetchPage(offset, pageSize));
    return [first, ...pages].flatMap((p) => p.items);
  }
  const items = [...first.items];
  for (let page = 1, offset = pageSize; page < maxPages; page++, offset += pageSize) {
    const next = await fetchPage(offset, pageSize);
    items.push(...next.items);
    if (next.items.length < pageSize) break;
  }
  return items;
}

/** Walks pages in order until `matches` finds an item; undefined when none does. */
export async function findInPages<T>(fetchPage: PageFetcher<T>, matches: (item: T) => boolean, options: PagingOptions = {}): Promise<T | undefined> {
  const { pageSize, maxPages } = { ...defaults, ...options };
  for (let page = 0, offset = 0; page < maxPages; page++, offset += pageSize) {
    const { items, total } = await fetchPage(offset, pageSize);
    const found = items.find(matches);
    if (found !== undefined) return found;
    if (items.length < pageSize || (total !== undefined && offset + items.length >= total)) return undefined;
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
