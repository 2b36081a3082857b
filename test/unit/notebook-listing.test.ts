/** "Gone" needs every lookup to agree: the shared walk, the list filtered by name, and a second walk. */
import { describe, expect, it, vi } from "vitest";
import type { AicpClient } from "../../client/client";
import type { Notebook } from "../../client/wire";
import { listingNow, NotebookListing } from "../../provider/notebook/listing";

/** A client whose three list views each show or hide the notebook; counts the calls. */
function client(shows: { walk: boolean; byName: boolean; secondWalk: boolean }) {
  const nb = { uuid: "nb-1", name: "research-abc", status: "Running" } as Notebook;
  const calls: string[] = [];
  const fake = {
    walkNotebooks: async () => (calls.push("walk"), { notebooks: shows.walk ? [nb] : [], whole: true }),
    findNotebooksByName: async (_ns: string, name: string) => (calls.push(`name:${name}`), shows.byName ? [nb] : []),
    findNotebook: async () => (calls.push("second walk"), shows.secondWalk ? nb : undefined),
  };
  return { listing: new NotebookListing(fake as unknown as AicpClient), calls };
}

describe("NotebookListing.locate", () => {
  it("answers from the shared walk when it shows the notebook", async () => {
    const { listing, calls } = client({ walk: true, byName: false, secondWalk: false });
    expect((await listing.locate("ns", "nb-1", "research-abc"))?.uuid).toBe("nb-1");
    expect(calls).toEqual(["walk"]);
  });

  it("finds a notebook the walk missed (a shifted page) through its name", async () => {
    const { listing, calls } = client({ walk: false, byName: true, secondWalk: false });
    expect((await listing.locate("ns", "nb-1", "research-abc"))?.uuid).toBe("nb-1");
    expect(calls).toEqual(["walk", "name:research-abc"]);
  });

  it("finds a notebook renamed outside Pulumi through a second walk", async () => {
    const { listing, calls } = client({ walk: false, byName: false, secondWalk: true });
    expect((await listing.locate("ns", "nb-1", "research-abc"))?.uuid).toBe("nb-1");
    expect(calls).toEqual(["walk", "name:research-abc", "second walk"]);
  });

  it("reports gone only when all three agree", async () => {
    const { listing, calls } = client({ walk: false, byName: false, secondWalk: false });
    expect(await listing.locate("ns", "nb-1", "research-abc")).toBeUndefined();
    expect(calls).toEqual(["walk", "name:research-abc", "second walk"]);
  });

  it("walks twice when no name is recorded", async () => {
    const { listing, calls } = client({ walk: false, byName: true, secondWalk: false });
    expect(await listing.locate("ns", "nb-1", undefined)).toBeUndefined();
    expect(calls).toEqual(["walk", "second walk"]);
  });

  it("with renamed: false (a removal the platform accepted) leaves out the second walk when a name is given, and only then", async () => {
    const named = client({ walk: false, byName: false, secondWalk: true });
    expect(await named.listing.locate("ns", "nb-1", "research-abc", undefined, { renamed: false })).toBeUndefined();
    expect(named.calls).toEqual(["walk", "name:research-abc"]);
    const unnamed = client({ walk: false, byName: false, secondWalk: true });
    expect((await unnamed.listing.locate("ns", "nb-1", undefined, undefined, { renamed: false }))?.uuid).toBe("nb-1");
    expect(unnamed.calls).toEqual(["walk", "second walk"]);
  });
});

/** A client whose walks are counted and answered by `answer` (a rejection is a failed listing). */
function walkingClient(answer: (walk: number) => Promise<Notebook[]>) {
  let walks = 0;
  const fake = {
    walkNotebooks: async () => ({ notebooks: await answer(++walks), whole: true }),
    findNotebooksByName: async () => [{ uuid: "nb-1", name: "research-abc" } as Notebook],
    findNotebook: async () => undefined,
  };
  return { fake: fake as unknown as AicpClient, walks: () => walks };
}

describe("NotebookListing's shared walk", () => {
  const nb = { uuid: "nb-1", name: "research-abc", status: "Running" } as Notebook;
  const before = -Infinity;

  it("answers a read from a walk that started at or after its notBefore, and walks again for a read asked after it", async () => {
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake);
    const asked = listingNow();
    await listing.find("ns", "nb-1");
    await listing.find("ns", "nb-1", asked);
    expect(walks()).toBe(1);
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(2);
  });

  it("reads asked while a walk is in flight wait for it to end, then share the next one: one walk in flight per namespace", async () => {
    let release!: () => void;
    const { fake, walks } = walkingClient((walk) => (walk === 1 ? new Promise((done) => (release = () => done([]))) : Promise.resolve([nb])));
    const listing = new NotebookListing(fake);
    const first = listing.find("ns", "nb-1");
    const later = Array.from({ length: 10 }, () => listing.find("ns", "nb-1"));
    await new Promise((r) => setTimeout(r, 5));
    expect(walks(), "no second walk while the first is in flight").toBe(1);
    release();
    expect(await first).toBeUndefined();
    expect((await Promise.all(later)).map((n) => n?.uuid)).toEqual(Array(10).fill("nb-1"));
    expect(walks()).toBe(2);
  });

  it("a write to one notebook sends only that notebook's reads to a new walk", async () => {
    const { fake, walks } = walkingClient(async () => [nb, { ...nb, uuid: "nb-2" }]);
    const listing = new NotebookListing(fake);
    await listing.find("ns", "nb-1", before);
    listing.wrote("ns", "nb-1");
    expect((await listing.find("ns", "nb-2", before))?.uuid).toBe("nb-2");
    expect(walks()).toBe(1);
    await listing.find("ns", "nb-1", before);
    expect(walks()).toBe(2);
  });

  it("a wait's poll takes a walk at most pollAgeMs old, never one from before the wait began", async () => {
    const listing = new NotebookListing(walkingClient(async () => []).fake, 60_000);
    const waitBegan = listingNow();
    expect(listing.pollSince(waitBegan, "ns", undefined)).toBe(waitBegan);
    expect(listing.pollSince(waitBegan - 120_000, "ns", undefined)).toBeGreaterThan(waitBegan - 61_000);
  });

  it("time the machine spent asleep counts: a walk from before a suspend does not answer a refresh after it", async () => {
    // Suspended: the wall clock moved an hour, the monotonic clock (performance.now) did not.
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    try {
      const { fake, walks } = walkingClient(async () => [nb]);
      const listing = new NotebookListing(fake);
      await listing.find("ns", "nb-1");
      vi.setSystemTime(Date.now() + 3_600_000);
      await listing.find("ns", "nb-1", listingNow() - 5000);
      expect(walks()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a wall clock set back does not make an old walk new", async () => {
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    try {
      const { fake, walks } = walkingClient(async () => [nb]);
      const listing = new NotebookListing(fake);
      await listing.find("ns", "nb-1");
      vi.advanceTimersByTime(60_000);
      vi.setSystemTime(Date.now() - 3_600_000);
      await listing.find("ns", "nb-1", listingNow() - 5000);
      expect(walks()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps one walk per namespace", async () => {
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake);
    await listing.find("ns-a", "nb-1", before);
    await listing.find("ns-b", "nb-1", before);
    await listing.find("ns-a", "nb-1", before);
    expect(walks()).toBe(2);
  });

  it("a failed walk answers no later read: the next one walks again", async () => {
    const { fake, walks } = walkingClient(async (walk) => {
      if (walk === 1) throw new Error("HTTP 503");
      return [nb];
    });
    const listing = new NotebookListing(fake);
    await expect(listing.find("ns", "nb-1", before)).rejects.toThrow("HTTP 503");
    expect((await listing.find("ns", "nb-1", before))?.uuid).toBe("nb-1");
    expect(walks()).toBe(2);
  });

  it("reads waiting on a walk that fails get the next walk's answer, and later reads never the failure", async () => {
    let failFirst!: (e: Error) => void;
    const { fake, walks } = walkingClient((walk) => (walk === 1 ? new Promise((_, reject) => (failFirst = reject)) : Promise.resolve([nb])));
    const listing = new NotebookListing(fake);
    const first = listing.find("ns", "nb-1");
    const waiting = listing.find("ns", "nb-1");
    failFirst(new Error("HTTP 503"));
    await expect(first).rejects.toThrow("HTTP 503");
    expect((await waiting)?.uuid).toBe("nb-1");
    expect((await listing.find("ns", "nb-1", before))?.uuid).toBe("nb-1");
    expect(walks()).toBe(2);
  });

  it("a notebook seen directly but not in the walk makes that walk stale for it: its next read walks again", async () => {
    const { fake, walks } = walkingClient(async () => []);
    const listing = new NotebookListing(fake);
    expect((await listing.locate("ns", "nb-1", "research-abc", before))?.uuid).toBe("nb-1");
    await listing.find("ns", "nb-1", before);
    expect(walks()).toBe(2);
  });

  it("a notebook no lookup shows leaves the walk in place", async () => {
    const { fake, walks } = walkingClient(async () => []);
    const listing = new NotebookListing(fake);
    expect(await listing.locate("ns", "nb-9", "other", before)).toBeUndefined();
    await listing.find("ns", "nb-9", before);
    expect(walks()).toBe(1);
  });
});
