/** Waiting for a notebook: a short absence from every lookup (a platform slow to list) is not "disappeared". */
import { describe, expect, it } from "vitest";
import type { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import type { Notebook } from "../../client/wire";
import { NotebookListing } from "../../provider/notebook/listing";
import { waitForStatus } from "../../provider/notebook/wait";

/** A client whose lists hide the notebook for the first `hiddenFor` walks, then show it Running. */
function lagging(hiddenFor: number) {
  let walks = 0;
  const nb = { uuid: "nb-1", name: "lagging", status: "Running" } as Notebook;
  const shown = () => walks > hiddenFor;
  const fake = {
    walkNotebooks: async () => (walks++, { notebooks: shown() ? [nb] : [], whole: true }),
    findNotebooksByName: async () => (shown() ? [nb] : []),
    findNotebook: async () => (shown() ? nb : undefined),
  };
  return new NotebookListing(fake as unknown as AicpClient, 0);
}

const ref = { namespace: "ns", uuid: "nb-1", name: "lagging" };
const fast = { initialIntervalMs: 5, maxIntervalMs: 5 };

describe("waitForStatus", () => {
  it("follows a look the deadline overtook with a last look at once, asked then, before it gives up", async () => {
    let walks = 0;
    const nb = (status: string) => ({ uuid: "nb-1", name: "lagging", status }) as Notebook;
    const fake = {
      // The first walk takes longer than the whole wait and shows Pending; any later one shows Running.
      walkNotebooks: async () => {
        const walk = ++walks;
        if (walk === 1) await new Promise((resolve) => setTimeout(resolve, 150));
        return { notebooks: [nb(walk === 1 ? "Pending" : "Running")], whole: true, pages: 1 };
      },
      findNotebooksByName: async () => [],
      findNotebook: async () => undefined,
    };
    const listing = new NotebookListing(fake as unknown as AicpClient, 1000);
    const found = await waitForStatus(listing, ref, "Running", { timeoutMs: 100, initialIntervalMs: 30, maxIntervalMs: 30 });
    expect(found.status).toBe("Running");
    expect(walks).toBe(2);
  });

  it("makes its last look with a walk asked then, not one a poll of the wait may reuse", async () => {
    let walks = 0;
    const nb = (status: string) => ({ uuid: "nb-1", name: "lagging", status }) as Notebook;
    const fake = {
      walkNotebooks: async () => ({ notebooks: [nb(++walks === 1 ? "Pending" : "Running")], whole: true, pages: 1 }),
      findNotebooksByName: async () => [],
      findNotebook: async () => undefined,
    };
    // Polls may take a walk a second old: every look before the last reuses the first walk, which shows Pending.
    const listing = new NotebookListing(fake as unknown as AicpClient, 1000);
    const found = await waitForStatus(listing, ref, "Running", { timeoutMs: 60, ...fast });
    expect(found.status).toBe("Running");
    expect(walks).toBe(2);
  });

  it("waits through a short absence from every lookup, within the grace period", async () => {
    const found = await waitForStatus(lagging(3), ref, "Running", { timeoutMs: 5_000, graceMs: 2_000, ...fast });
    expect(found.uuid).toBe("nb-1");
  });

  it("reports the notebook gone once it has been missing for the whole grace period", async () => {
    const error = (await waitForStatus(lagging(Number.POSITIVE_INFINITY), ref, "Running", { timeoutMs: 5_000, graceMs: 50, ...fast }).catch(
      (e: unknown) => e,
    )) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.message).toMatch(/nb-1 disappeared .*\(missing from every lookup for \d+ s\)/);
  });

  it("waits for Stopped through Failed: a Failed notebook being stopped is on its way", async () => {
    const answers = ["Failed", "Failed", "Stopped"];
    const fake = {
      walkNotebooks: async () => ({
        notebooks: [{ uuid: "nb-1", name: "lagging", status: answers.length > 1 ? answers.shift() : answers[0] } as Notebook],
        whole: true,
      }),
      findNotebooksByName: async () => [],
      findNotebook: async () => undefined,
    };
    const found = await waitForStatus(new NotebookListing(fake as unknown as AicpClient, 0), ref, "Stopped", { timeoutMs: 5_000, ...fast });
    expect(found.status).toBe("Stopped");
  });
});
