/**
 * One listing of a namespace serves every notebook read of the provider
 * process within a short window. The platform has no "get notebook" operation,
 * so each read is a walk through the list: refreshing 100 notebooks, or 100
 * notebooks waiting to become Running, would otherwise walk it 100 times.
 * A write this process sends invalidates the namespace's listing.
 *
 * A walk of the whole list proves nothing about absence: pages shift while
 * others write, and the platform's totals may mislead (platform-api B5). So
 * a notebook the listing does not show is looked up directly, in the list
 * filtered by its name and in a second walk, before anyone concludes it is gone.
 */
import type { AicpClient } from "../client/client";
import type { Notebook } from "../client/wire";
import { lookedUpTwice } from "./create-once";
import type { NotebookRef } from "./notebook-wait";

/** Sends one write and forgets the listing of its namespace afterwards. */
export type Write = <T>(namespace: string, send: () => Promise<T>) => Promise<T>;

/** What a notebook's lifecycle acts through: the client, the shared listing, and its write step. */
export interface NotebookPlatform {
  client: AicpClient;
  listing: NotebookListing;
  write: Write;
}

/**
 * How old the shared listing may be for the reads of a refresh: the engine
 * sends them over several seconds, and a refresh is one point in time. A
 * notebook the snapshot does not show is still looked up directly.
 */
export const refreshAgeMs = 5000;

interface Snapshot {
  /** When the walk finished; undefined while it runs (reads then wait for it). */
  completedAt?: number;
  readonly byUuid: Promise<Map<string, Notebook>>;
}

export class NotebookListing {
  private readonly snapshots = new Map<string, Snapshot>();

  /** @param maxAgeMs how old a listing may be and still answer a read (waits poll with this age) */
  constructor(
    private readonly client: AicpClient,
    private readonly maxAgeMs = 500,
  ) {}

  /**
   * The notebook, from the shared listing or else from direct lookups:
   * the list filtered by its name, then (in case it was renamed outside
   * Pulumi) a second walk of the whole list page by page. Undefined only when
   * none of them shows it.
   */
  async locate(namespace: string, uuid: string, name: string | undefined, maxAgeMs = this.maxAgeMs): Promise<Notebook | undefined> {
    const listed = await this.find(namespace, uuid, maxAgeMs);
    if (listed) return listed;
    const byName = name ? (await this.client.findNotebooksByName(namespace, name)).find((n) => n.uuid === uuid) : undefined;
    const direct = byName ?? (await this.client.findNotebook(namespace, uuid));
    // Seen directly but not in the walk: the listing is stale.
    if (direct) this.invalidate(namespace);
    return direct;
  }

  /** The notebook as listed at most maxAgeMs ago (or by a walk still running); undefined when the list does not show it (which proves nothing). */
  async find(namespace: string, uuid: string, maxAgeMs = this.maxAgeMs): Promise<Notebook | undefined> {
    let snapshot = this.snapshots.get(namespace);
    const stale = snapshot?.completedAt !== undefined && Date.now() - snapshot.completedAt > maxAgeMs;
    if (!snapshot || stale) {
      // A walk of many pages may take longer than maxAgeMs: its age counts from when it finished.
      const byUuid = this.client.listAllNotebooks(namespace).then((all) => {
        fresh.completedAt = Date.now();
        return new Map(all.map((n) => [n.uuid, n]));
      });
      const fresh: Snapshot = { byUuid };
      snapshot = fresh;
      this.snapshots.set(namespace, snapshot);
      // A failed listing must not answer later reads.
      byUuid.catch(() => this.snapshots.get(namespace) === snapshot && this.snapshots.delete(namespace));
    }
    return (await snapshot.byUuid).get(uuid);
  }

  /** Forgets the namespace's listing: the next read lists again. */
  invalidate(namespace: string): void {
    this.snapshots.delete(namespace);
  }
}

/** The notebook from the listing or direct lookups, asked twice a pause apart before it counts as gone (create-once.ts). */
export function confirmedLookup(listing: NotebookListing, ref: NotebookRef, maxAgeMs?: number): Promise<Notebook | undefined> {
  return lookedUpTwice((again) => {
    if (again) listing.invalidate(ref.namespace);
    return listing.locate(ref.namespace, ref.uuid, ref.name, again ? 0 : maxAgeMs);
  });
}
