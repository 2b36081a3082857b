/** "Gone" needs every lookup to agree: the shared walk, the list filtered by name, and a second walk. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AicpClient } from "../../client/client";
import type { Notebook } from "../../client/wire";
import { NotebookListing } from "../../provider/notebook-listing";

/** A client whose three list views each show or hide the notebook; counts the calls. */
function client(shows: { walk: boolean; byName: boolean; secondWalk: boolean }) {
  const nb = { uuid: "nb-1", name: "research-abc", status: "Running" } as Notebook;
  const calls: string[] = [];
  const fake = {
    listAllNotebooks: async () => (calls.push("walk"), shows.walk ? [nb] : []),
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
});

/** A client whose walks are counted and answered by `answer` (a rejection is a failed listing). */
function walkingClient(answer: (walk: number) => Promise<Notebook[]>) {
  let walks = 0;
  const fake = {
    listAllNotebooks: async () => answer(++walks),
    findNotebooksByName: async () => [{ uuid: "nb-1", name: "research-abc" } as Notebook],
    findNotebook: async () => undefined,
  };
  return { fake: fake as unknown as AicpClient, walks: () => walks };
}

describe("NotebookListing's shared walk", () => {
  const nb = { uuid: "nb-1", name: "research-abc", status: "Running" } as Notebook;
  afterEach(() => vi.useRealTimers());

  it("answers reads within maxAgeMs of the walk's end from that walk, and walks again once it is older", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T10:00:00.000Z"));
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake, 500);
    await listing.find("ns", "nb-1");
    vi.setSystemTime(new Date("2026-11-24T10:00:00.500Z"));
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(1);
    vi.setSystemTime(new Date("2026-11-24T10:00:00.501Z"));
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(2);
  });

  it("a read's own maxAgeMs overrides the listing's", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T10:00:00.000Z"));
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake, 60_000);
    await listing.find("ns", "nb-1");
    vi.setSystemTime(new Date("2026-11-24T10:00:00.002Z"));
    await listing.find("ns", "nb-1", 1);
    expect(walks()).toBe(2);
  });

  it("concurrent reads share one walk in flight", async () => {
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake);
    const found = await Promise.all([listing.find("ns", "nb-1"), listing.find("ns", "nb-1"), listing.find("ns", "nb-2")]);
    expect(found.map((n) => n?.uuid)).toEqual(["nb-1", "nb-1", undefined]);
    expect(walks()).toBe(1);
  });

  it("keeps one walk per namespace", async () => {
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake);
    await listing.find("ns-a", "nb-1");
    await listing.find("ns-b", "nb-1");
    await listing.find("ns-a", "nb-1");
    expect(walks()).toBe(2);
  });

  it("a failed walk answers no later read: the next one walks again", async () => {
    const { fake, walks } = walkingClient(async (walk) => {
      if (walk === 1) throw new Error("HTTP 503");
      return [nb];
    });
    const listing = new NotebookListing(fake);
    await expect(listing.find("ns", "nb-1")).rejects.toThrow("HTTP 503");
    expect((await listing.find("ns", "nb-1"))?.uuid).toBe("nb-1");
    expect(walks()).toBe(2);
  });

  it("a failed walk that was already replaced does not forget its replacement", async () => {
    let failFirst!: (e: Error) => void;
    const { fake, walks } = walkingClient((walk) => (walk === 1 ? new Promise((_, reject) => (failFirst = reject)) : Promise.resolve([nb])));
    const listing = new NotebookListing(fake);
    const first = listing.find("ns", "nb-1");
    listing.invalidate("ns");
    expect((await listing.find("ns", "nb-1"))?.uuid).toBe("nb-1");
    failFirst(new Error("HTTP 503"));
    await expect(first).rejects.toThrow("HTTP 503");
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(2);
  });

  it("invalidate makes the next read walk again", async () => {
    const { fake, walks } = walkingClient(async () => [nb]);
    const listing = new NotebookListing(fake);
    await listing.find("ns", "nb-1");
    listing.invalidate("ns");
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(2);
  });

  it("a notebook seen directly but not in the walk makes the walk stale: the next read walks again", async () => {
    const { fake, walks } = walkingClient(async () => []);
    const listing = new NotebookListing(fake);
    expect((await listing.locate("ns", "nb-1", "research-abc"))?.uuid).toBe("nb-1");
    await listing.find("ns", "nb-1");
    expect(walks()).toBe(2);
  });

  it("a notebook no lookup shows leaves the walk in place", async () => {
    const { fake, walks } = walkingClient(async () => []);
    const listing = new NotebookListing(fake);
    expect(await listing.locate("ns", "nb-9", "other")).toBeUndefined();
    await listing.find("ns", "nb-9");
    expect(walks()).toBe(1);
  });
});
