/**
 * A walk is of a scope (provider/notebook/listing.ts): the list filtered by
 * the stack token an auto-name carries, or the whole namespace. The scope
 * changes what a walk costs, never what its absence decides.
 */
import { describe, expect, it } from "vitest";
import type { AicpClient } from "../../client/client";
import type { Notebook } from "../../client/wire";
import { listingNow, NotebookListing } from "../../provider/notebook/listing";

/** Written out, not derived: the stack token is 6 hex characters between hyphens before the place's 7 (provider/identity.ts). */
const tokened = "research-0a1b2c-3d4e5f6";
const plain = "research-3d4e5f6";

/** A client whose walks record their name filter and show `shown`; `whole` is what the walk says of its answer. */
function client(shown: Notebook[], { whole = true, byName = [] as Notebook[], pages = 1 } = {}) {
  const calls: string[] = [];
  const fake = {
    walkNotebooks: async (_ns: string, { name }: { name?: string } = {}) => (
      calls.push(name === undefined ? "walk" : `walk:${name}`),
      { notebooks: name === undefined ? shown : shown.filter((n) => String(n.name).includes(name)), whole, pages }
    ),
    findNotebooksByName: async (_ns: string, name: string) => (calls.push(`name:${name}`), byName.filter((n) => n.name === name)),
    findNotebook: async () => (calls.push("second walk"), undefined),
  };
  return { listing: new NotebookListing(fake as unknown as AicpClient, 1000), calls };
}

const nb = (uuid: string, name: string) => ({ uuid, name, status: "Running" }) as Notebook;

describe("the scope of a walk", () => {
  it("is the stack token for a name that carries one, the whole namespace for one that does not", async () => {
    const { listing, calls } = client([nb("nb-1", tokened), nb("nb-2", plain)]);
    expect((await listing.locate("ns", "nb-1", tokened))?.uuid).toBe("nb-1");
    expect((await listing.locate("ns", "nb-2", plain))?.uuid).toBe("nb-2");
    expect(calls).toEqual(["walk:0a1b2c", "walk"]);
  });

  it("shares one walk between the notebooks of a stack, and keeps it apart from the whole namespace's", async () => {
    const { listing, calls } = client([nb("nb-1", tokened), nb("nb-3", "worker-0a1b2c-7777777"), nb("nb-2", plain)]);
    const since = -Infinity;
    await Promise.all([listing.find("ns", "nb-1", since, tokened), listing.find("ns", "nb-3", since, "worker-0a1b2c-7777777")]);
    await listing.find("ns", "nb-2", since, plain);
    expect(calls).toEqual(["walk:0a1b2c", "walk"]);
  });

  it("decides nothing by what it leaves out: a notebook renamed outside Pulumi is looked up by name, then by a walk of the whole namespace", async () => {
    const { listing, calls } = client([nb("nb-1", "renamed-in-the-console")]);
    expect(await listing.locate("ns", "nb-1", tokened)).toBeUndefined();
    expect(calls).toEqual(["walk:0a1b2c", `name:${tokened}`, "second walk"]);
  });
});

describe("the polls of a scope", () => {
  it("take a walk as old as pollAgeMs for each page the scope's last walk read, and never one from before their wait", async () => {
    const { listing } = client([nb("nb-1", tokened)], { pages: 3 });
    expect(listingNow() - listing.pollSince(-Infinity, "ns", tokened)).toBeLessThanOrEqual(1000);
    await listing.find("ns", "nb-1", -Infinity, tokened);
    const asked = listingNow();
    const since = listing.pollSince(-Infinity, "ns", tokened);
    expect(asked - since).toBeGreaterThan(2000);
    expect(asked - since).toBeLessThanOrEqual(3000);
    expect(listingNow() - listing.pollSince(-Infinity, "ns", plain)).toBeLessThanOrEqual(1000);
    const waitStarted = listingNow();
    expect(listing.pollSince(waitStarted, "ns", tokened)).toBe(waitStarted);
  });
});

describe("the holders of a name for a create's convergence", () => {
  const holder = nb("nb-9", tokened);
  const own = nb("nb-5", tokened);

  it("come from the newest walk of the stack's scope that listed the create's notebook Running, only those named exactly so", async () => {
    const { listing, calls } = client([own, holder, nb("nb-8", `${tokened}0`), nb("nb-7", "worker-0a1b2c-7777777")]);
    const byName = async () => (calls.push("byName"), []);
    await listing.locate("ns", "nb-5", tokened);
    expect((await listing.holdersOnceRunning("ns", tokened, "nb-5", byName)).map((n) => n.uuid)).toEqual(["nb-5", "nb-9"]);
    expect(calls).toEqual(["walk:0a1b2c"]);
  });

  it("come from a lookup by name when the walk cannot say it lost none (pages may have shifted)", async () => {
    const { listing, calls } = client([own], { whole: false });
    const byName = async () => (calls.push("byName"), [own, holder]);
    await listing.locate("ns", "nb-5", tokened);
    expect((await listing.holdersOnceRunning("ns", tokened, "nb-5", byName)).map((n) => n.uuid)).toEqual(["nb-5", "nb-9"]);
    expect(calls).toEqual(["walk:0a1b2c", "byName"]);
  });

  it("come from a lookup by name when no walk listed the notebook Running: none yet, another notebook's, or one that lists it Pending", async () => {
    const pending = { ...own, status: "Pending" } as Notebook;
    for (const [shown, uuid] of [
      [[], "nb-5"],
      [[holder], "nb-5"],
      [[pending], "nb-5"],
    ] as Array<[Notebook[], string]>) {
      const { listing, calls } = client(shown);
      if (shown.length > 0) await listing.find("ns", uuid, -Infinity, tokened);
      expect(await listing.holdersOnceRunning("ns", tokened, uuid, async () => (calls.push("byName"), []))).toEqual([]);
      expect(calls.at(-1)).toBe("byName");
    }
  });

  it("come from a lookup by name for a name without a stack token, with no walk", async () => {
    const { listing, calls } = client([nb("nb-2", plain)]);
    await listing.locate("ns", "nb-2", plain);
    const byName = async () => (calls.push("byName"), []);
    expect(await listing.holdersOnceRunning("ns", plain, "nb-2", byName)).toEqual([]);
    expect(calls).toEqual(["walk", "byName"]);
  });
});
