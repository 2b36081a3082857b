/** Evidence of a write: update times compared as the platform wrote them, and fields that may be missing. */
import { describe, expect, it } from "vitest";
import type { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import type { Notebook } from "../../client/wire";
import { compareWritten, evidenceOf, shows } from "../../provider/notebook/evidence";
import { NotebookListing } from "../../provider/notebook/listing";
import { waitForStatus } from "../../provider/notebook/wait";

const nb = (fields: Partial<Notebook>) => ({ uuid: "nb-1", name: "n", status: "Running", image: "lab:1", ...fields }) as Notebook;

describe("evidence of a write", () => {
  it("compares bare update times as written, in whatever zone, and zoned ones as instants", () => {
    expect(compareWritten("2025-01-01 10:00:00", "2025-01-01T10:00:01")).toBe(1);
    expect(compareWritten("2025-01-01 10:00:01", "2025-01-01 10:00:00")).toBe(-1);
    expect(compareWritten("2025-01-01 10:00:00", "2025-01-01 10:00:00")).toBe(0);
    expect(compareWritten("2025-01-01T10:00:00+08:00", "2025-01-01T02:00:01Z")).toBe(1);
    // A bare value and a zoned one, or one missing: cannot tell.
    expect(compareWritten("2025-01-01 10:00:00", "2025-01-01T10:00:01Z")).toBeUndefined();
    expect(compareWritten(undefined, "2025-01-01 10:00:00")).toBeUndefined();
    expect(compareWritten("yesterday", "today")).toBeUndefined();
  });

  it("an answer as before the write does not show it; a later update time, a new image, or another status does", () => {
    const before = nb({ updated_at: "2025-01-01 10:00:00" });
    expect(shows({ before }, before)).toBe(false);
    expect(shows({ before }, nb({ updated_at: "2025-01-01 10:00:05" }))).toBe(true);
    expect(shows({ before }, nb({ updated_at: "2025-01-01 09:59:00", status: "Pending" }))).toBe(false);
    expect(shows({ before, image: "lab:2" }, nb({ updated_at: "2025-01-01 10:00:00", image: "lab:2" }))).toBe(true);
    expect(shows({ before }, nb({ updated_at: "2025-01-01 10:00:00", status: "Pending" }))).toBe(true);
  });

  it("without update times and with nothing else changed, the fields cannot tell; a transition seen once counts for the rest of the wait", () => {
    const before = nb({});
    expect(shows({ before }, nb({}))).toBeUndefined();
    const seen = evidenceOf({ before });
    expect(seen(nb({ status: "Pending" }))).toBe(true);
    expect(seen(nb({ status: "Running" }))).toBe(true);
  });

  it("a wait that never sees the write (its update time never moves) ends at its timeout, and says what it saw", async () => {
    const same = nb({ updated_at: "2025-01-01 10:00:00" });
    const fake = { walkNotebooks: async () => ({ notebooks: [same], whole: true }), findNotebooksByName: async () => [], findNotebook: async () => undefined };
    const listing = new NotebookListing(fake as unknown as AicpClient, 0);
    const error = (await waitForStatus(listing, { namespace: "ns", uuid: "nb-1" }, "Running", {
      timeoutMs: 200,
      initialIntervalMs: 5,
      maxIntervalMs: 5,
      showsWrite: evidenceOf({ before: same, restarted: true }),
    }).catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.message).toMatch(/still listed as before the change \(status "Running", image "lab:1", updated_at "2025-01-01 10:00:00"\)/);
    expect(error.message).toContain("pulumi refresh");
  });

  it(
    "a wait whose answers cannot tell (no update time, nothing visible changed) takes the status as it is after a bounded settle, not at the " + "timeout",
    async () => {
      const fake = {
        walkNotebooks: async () => ({ notebooks: [nb({})], whole: true }),
        findNotebooksByName: async () => [],
        findNotebook: async () => undefined,
      };
      const listing = new NotebookListing(fake as unknown as AicpClient, 0);
      const warned: string[] = [];
      const original = console.error;
      console.error = (message: unknown) => void warned.push(String(message));
      try {
        const done = await waitForStatus(listing, { namespace: "ns", uuid: "nb-1" }, "Running", {
          timeoutMs: 400,
          initialIntervalMs: 5,
          maxIntervalMs: 5,
          showsWrite: evidenceOf({ before: nb({}), restarted: true }),
        }).catch((e: unknown) => e);
        expect(done).toMatchObject({ uuid: "nb-1", status: "Running" });
      } finally {
        console.error = original;
      }
      expect(warned.join("\n")).toMatch(/cannot show whether the change was applied/);
    },
  );

  it("once an answer showed the write, an answer from a replica further behind (older update time) does not count", () => {
    const before = nb({ updated_at: "2025-01-01 10:00:00" });
    const seen = evidenceOf({ before, restarted: true });
    expect(seen(nb({ updated_at: "2025-01-01 10:00:05", status: "Pending" }))).toBe(true);
    expect(seen(nb({ updated_at: "2025-01-01 09:59:00", status: "Running" }))).toBe(false);
    expect(seen(nb({ updated_at: "2025-01-01 10:00:00", status: "Running" }))).toBe(false);
    expect(seen(nb({ updated_at: "2025-01-01 10:00:09", status: "Running" }))).toBe(true);
  });

  it("an answer still on the old image does not show an image write, whatever its update time (an earlier write of the same update moved it)", () => {
    const before = nb({ updated_at: "2025-01-01 10:00:00", image: "lab:1" });
    expect(shows({ before, image: "lab:2" }, nb({ updated_at: "2025-01-01 10:00:03", image: "lab:1" }))).toBe(false);
    // An image spelt neither way tells nothing by itself: the status transition does.
    expect(shows({ before: nb({ image: "lab:1" }), image: "lab:2" }, nb({ image: "docker.io/library/lab:2", status: "Pending" }))).toBe(true);
  });
});
