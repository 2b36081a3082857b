/** "Gone" needs every lookup to agree: the shared walk, the list filtered by name, and a second walk. */
import { describe, expect, it } from "vitest";
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
