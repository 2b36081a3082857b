/**
 * One walk of a namespace's list serves every notebook lookup of the provider
 * process that may take it. The platform has no "get notebook" operation, so
 * each lookup is a walk through the list: refreshing 100 notebooks, or 100
 * notebooks waiting to become Running, would otherwise walk it 100 times.
 *
 * Which walk may answer a lookup: one that started no earlier than the
 * lookup's `notBefore` (by default the moment it is asked: never an answer
 * older than the operation that reads it), nor before this process's last
 * write to that notebook ended. A walk in flight that started earlier is let
 * finish, and the next walk answers everyone who waited for it: at most one
 * walk per namespace is in flight, and a write to one notebook sends nobody
 * else's lookup back to the platform.
 *
 * A walk is of a scope: the whole namespace, or, for a notebook whose name
 * carries a stack's token (identity.ts stackTokenInName), the list filtered
 * by that token, which shows the stack's auto-named notebooks and hardly any
 * other: its cost follows the stack, not the namespace. Which
 * scope answers changes no decision: a walk of either only ever shows that a
 * notebook is there, and the lookups below decide that one is not.
 *
 * A walk proves nothing about absence: pages shift while
 * others write, a replica may lag, and the platform's totals may mislead
 * (docs/platform-api.md B5); it even ends where a stated total says, since
 * what it leaves out costs a lookup, not an answer. So a notebook the walk
 * does not show is looked up directly, in the list filtered by its name and
 * in a second walk that believes no total, before anyone concludes it is
 * gone; a create's lookup of its name before it is sent never comes from a
 * shared walk (create-once.ts). Three exceptions: the check of a pinned name
 * (holdersForCheck) may read a walk from before it was asked, which a create
 * never relies on; the wait for a removal the platform accepted looks a
 * notebook up by name only, without the second walk (locate, renamed:
 * false); and a create's convergence reads the walk of its stack scope that
 * listed its notebook Running, when that walk's answer is whole
 * (holdersOnceRunning).
 */
import type { AicpClient } from "../../client/client";
import type { Page } from "../../client/paging";
import type { Notebook } from "../../client/wire";
import { lookedUpTwice } from "../create-once";
import { stackTokenInName } from "../identity";
import { listingNow } from "./listing-clock";
import type { NotebookRef } from "./wait";

export { listingNow };

/** Sends one write to a notebook (its uuid, or undefined for a create, whose answer names it) and records when it ended. */
export type Write = <T>(namespace: string, uuid: string | undefined, send: () => Promise<T>) => Promise<T>;

/** What a notebook's lifecycle acts through: the client, the shared listing, and its write step. */
export interface NotebookPlatform {
  client: AicpClient;
  listing: NotebookListing;
  write: Write;
}

/**
 * How old the shared listing may be for the reads of a refresh, the reads
 * of a destroy's deletes before their writes (notebook/index.ts), and the
 * checks of pinned names (holdersForCheck): the engine sends them over
 * several seconds, and a refresh, a destroy or a preview is one point in
 * time. A notebook the snapshot does not show is still looked up directly,
 * and a name it shows free is still looked up by the create.
 */
export const refreshAgeMs = 5000;

/** The most pages a poll's walk may be old by (pollSince): a wait's last look is never much older than the moment it is made. */
const maxPollAgePages = 4;

interface Walk {
  readonly startedAt: number;
  done: boolean;
  readonly answer: Promise<WalkAnswer>;
}

/**
 * What a walk listed, by uuid; whether no notebook can have been lost to
 * shifting pages, and how many pages it read (client.ts walkNotebooks).
 */
interface WalkAnswer {
  readonly byUuid: Map<string, Notebook>;
  readonly whole: boolean;
  readonly pages: number;
}

/** A walk that ended with an answer, and when it started. */
interface FinishedWalk extends WalkAnswer {
  readonly startedAt: number;
}

export class NotebookListing {
  /** The newest walk of each namespace and scope (walkKey), in flight or done. */
  private readonly walks = new Map<string, Walk>();
  /** The newest walk of each namespace and scope that ended with an answer (holdersForCheck, holdersOnceRunning, pollSince). */
  private readonly finished = new Map<string, FinishedWalk>();
  /** The settings check's page of each namespace, until a walk starts (firstPage). */
  private readonly firstPages = new Map<string, { startedAt: number; page: Page<Notebook> }>();

  /**
   * @param pollAgeMs how long before a wait's poll a walk may have started and still answer it (pollSince)
   * @param floors per notebook, when a walk must have started to answer for it (this process wrote to it, or saw it where a
   * walk did not): the process's one map, shared by the listings of every client it builds, so a write that ends after the
   * settings changed still counts
   */
  constructor(
    private readonly client: AicpClient,
    readonly pollAgeMs = 500,
    private readonly floors = new Map<string, number>(),
  ) {}

  /**
   * The notebook, from a shared walk or else from direct lookups: the list
   * filtered by its name, then (in case it was renamed outside Pulumi) a
   * second walk of the whole list page by page. Undefined only when none of
   * them shows it. `renamed: false` leaves out that second walk when the name
   * is known: for a removal this process asked for and the platform accepted
   * (notebook/wait.ts waitForRemoval), which ends whatever the notebook's name.
   */
  async locate(
    namespace: string,
    uuid: string,
    name: string | undefined,
    notBefore = listingNow(),
    { renamed = true }: { renamed?: boolean } = {},
  ): Promise<Notebook | undefined> {
    const listed = await this.find(namespace, uuid, notBefore, name);
    if (listed) return listed;
    const byName = name ? (await this.client.findNotebooksByName(namespace, name)).find((n) => n.uuid === uuid) : undefined;
    const direct = byName ?? (renamed || !name ? await this.client.findNotebook(namespace, uuid) : undefined);
    // Seen directly but not in the walk: walks up to now do not show it.
    if (direct) this.floors.set(key(namespace, uuid), listingNow());
    return direct;
  }

  /**
   * The notebook as a walk started at or after notBefore (and after this
   * process's last write to it) lists it; undefined when it does not, which
   * proves nothing. The walk is of the scope of `name`, the name it is known by.
   */
  async find(namespace: string, uuid: string, notBefore = listingNow(), name?: string): Promise<Notebook | undefined> {
    const since = Math.max(notBefore, this.floors.get(key(namespace, uuid)) ?? -Infinity);
    return (await (await this.walkSince(namespace, since, stackTokenInName(name))).answer).byUuid.get(uuid);
  }

  /**
   * Every notebook a walk started at or after notBefore lists, of the scope
   * of `name` (every notebook named `name` is in it): proves nothing about
   * absence (see the module comment).
   */
  async listed(namespace: string, notBefore = listingNow(), name?: string): Promise<Notebook[]> {
    return [...(await (await this.walkSince(namespace, notBefore, stackTokenInName(name))).answer).byUuid.values()];
  }

  /**
   * The notebooks named `name`, for the convergence of a create whose
   * notebook `ownUuid` the platform has listed Running (create-once.ts
   * otherCreates), which acts on what the answer leaves out: from the newest
   * finished walk of the name's stack scope, when that walk lists the
   * notebook Running and its answer is whole (client.ts walkNotebooks). That
   * is the list as it was when the notebook showed Running, the moment
   * docs/identity.md "Convergence" looks at; a walk of several pages asked
   * its pages together, from a moment before. Else, and for a name without a
   * stack token, `byName`, asked now.
   */
  async holdersOnceRunning(namespace: string, name: string, ownUuid: string, byName: () => Promise<Notebook[]>): Promise<Notebook[]> {
    const scope = stackTokenInName(name);
    const answer = scope === undefined ? undefined : this.finished.get(walkKey(namespace, scope));
    if (!answer?.whole || answer.byUuid.get(ownUuid)?.status !== "Running") return byName();
    return [...answer.byUuid.values()].filter((n) => n.name === name);
  }

  /**
   * The notebooks named exactly `name`, for the check of a pinned name
   * (notebook/preview.ts), which refuses a name held by another; the create
   * looks the name up itself before it is sent (create-once.ts), whatever the
   * check found. The engine makes its checks one after another, and a preview
   * is one point in time, as a refresh is: in a namespace that fits in one
   * page, one walk started up to refreshAgeMs before the check serves them
   * all, and a walk in flight is not waited for when a finished one will do.
   * A holder that a walk from before the check shows counts only once
   * `byName`, asked now, shows it too: it may be gone since. A namespace of
   * more than a page, or a walk that fails, costs the check `byName`.
   */
  async holdersForCheck(namespace: string, name: string, byName: () => Promise<Notebook[]>): Promise<Notebook[]> {
    const askedAt = listingNow();
    const whole = await this.wholeListSince(namespace, askedAt - refreshAgeMs).catch(() => undefined);
    if (!whole) return byName();
    const listed = [...whole.byUuid.values()].filter((n) => n.name === name);
    if (listed.length === 0) return [];
    return whole.startedAt >= askedAt ? listed : byName();
  }

  /** The newest finished walk started at or after `since`, when it found fewer notebooks than a page holds; undefined when the namespace holds more. */
  private async wholeListSince(namespace: string, since: number): Promise<FinishedWalk | undefined> {
    const whole = (walk: FinishedWalk | undefined) =>
      walk && walk.startedAt >= since && this.client.fitsOneNotebookPage([...walk.byUuid.values()]) ? walk : undefined;
    const known = whole(this.finished.get(walkKey(namespace, undefined)));
    if (known) return known;
    // The first page tells whether the namespace fits in one: the settings check's, or one asked now (kept for the walk).
    const kept = this.firstPages.get(namespace);
    const first = kept && kept.startedAt >= since ? kept.page : await this.firstPage(namespace);
    if (!this.client.fitsOneNotebookPage(first.items)) return undefined;
    await (
      await this.walkSince(namespace, since)
    ).answer;
    return whole(this.finished.get(walkKey(namespace, undefined)));
  }

  /**
   * The first page of a walk of the namespace, which the settings check reads
   * (settings-check.ts): kept, so that a walk that may start as early as this
   * page was asked for (a refresh's or a check's, refreshAgeMs) begins with it
   * instead of asking again. A lookup asked after it never gets it.
   */
  async firstPage(namespace: string): Promise<Page<Notebook>> {
    const startedAt = listingNow();
    const page = await this.client.firstNotebookPage(namespace);
    const newest = this.walks.get(walkKey(namespace, undefined));
    if (!newest || newest.startedAt < startedAt) this.firstPages.set(namespace, { startedAt, page });
    return page;
  }

  /** Records that a write to the notebook ended now: only a walk started later answers for it. */
  wrote(namespace: string, uuid: string): void {
    this.floors.set(key(namespace, uuid), listingNow());
  }

  /**
   * The notBefore of a wait's poll of a notebook known by `name`: a walk of
   * its scope at most pollAgeMs old for each page the scope's last walk
   * read, never one from before the wait began. So the polls of many waits
   * cost the scope about one list request per pollAgeMs, however many pages
   * it holds (up to maxPollAgePages): their requests follow the length of an
   * up, not its length times the pages of its stack.
   */
  pollSince(waitStartedAt: number, namespace: string, name: string | undefined): number {
    const pages = Math.min(maxPollAgePages, Math.max(1, this.finished.get(walkKey(namespace, stackTokenInName(name)))?.pages ?? 1));
    return Math.max(waitStartedAt, listingNow() - this.pollAgeMs * pages);
  }

  private async walkSince(namespace: string, since: number, scope?: string): Promise<Walk> {
    for (;;) {
      const newest = this.walks.get(walkKey(namespace, scope));
      if (newest && newest.startedAt >= since) return newest;
      if (!newest?.done && newest) {
        // One walk in flight per namespace: the next one starts when it ends, for everyone waiting.
        await newest.answer.catch(() => undefined);
        continue;
      }
      return this.startWalk(namespace, since, scope);
    }
  }

  private startWalk(namespace: string, since: number, scope: string | undefined): Walk {
    // The settings check's page is of the whole namespace, so only a walk of it may begin with the page.
    const kept = scope === undefined ? this.firstPages.get(namespace) : undefined;
    if (scope === undefined) this.firstPages.delete(namespace);
    // A walk is as old as its first page: the settings check's, when that is recent enough for the lookup.
    const first = kept && kept.startedAt >= since ? kept : undefined;
    const startedAt = first?.startedAt ?? listingNow();
    const walkKeyed = walkKey(namespace, scope);
    const walkAll = async () => {
      const { notebooks, whole, pages } = await this.client.walkNotebooks(namespace, { firstPage: first?.page, name: scope });
      const answer = { byUuid: new Map(notebooks.map((n) => [n.uuid, n])), whole, pages };
      if ((this.finished.get(walkKeyed)?.startedAt ?? -Infinity) < startedAt) this.finished.set(walkKeyed, { ...answer, startedAt });
      return answer;
    };
    const walk: Walk = { startedAt, done: false, answer: walkAll() };
    this.walks.set(walkKeyed, walk);
    walk.answer.then(
      () => (walk.done = true),
      // A failed walk answers those who waited for it, and nobody later.
      () => {
        walk.done = true;
        if (this.walks.get(walkKeyed) === walk) this.walks.delete(walkKeyed);
      },
    );
    return walk;
  }
}

function key(namespace: string, uuid: string): string {
  return `${namespace}\u0000${uuid}`;
}

function walkKey(namespace: string, scope: string | undefined): string {
  return scope === undefined ? namespace : `${namespace}\u0000${scope}`;
}

/** The notebook from a walk or direct lookups, asked twice a pause apart before it counts as gone (create-once.ts). */
export function confirmedLookup(listing: NotebookListing, ref: NotebookRef, notBefore?: number): Promise<Notebook | undefined> {
  // The second look takes only a walk started after the pause.
  return lookedUpTwice((again) => listing.locate(ref.namespace, ref.uuid, ref.name, again ? listingNow() : notBefore));
}
