/** Evidence of a write (issue 22, item 5): update times compared as the platform wrote them, and fields that may be missing. */
import { describe, expect, it } from "vitest";
import type { AicpClient } from "../../client/client";
import { AicpError } from "../../client/errors";
import type { Notebook } from "../../client/wire";
import { compareWritten, evidenceOf, shows } from "../../provider/notebook-evidence";
import { NotebookListing } from "../../provider/notebook-listing";
import { waitForStatus } from "../../provider/notebook-wait";

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

  it("a wait that never sees the write ends at its timeout, and says what it saw", async () => {
    const fake = { listAllNotebooks: async () => [nb({})], findNotebooksByName: async () => [], findNotebook: async () => undefined };
    const listing = new NotebookListing(fake as unknown as AicpClient, 0);
    const error = (await waitForStatus(listing, { namespace: "ns", uuid: "nb-1" }, "Running", {
      timeoutMs: 200,
      initialIntervalMs: 5,
      maxIntervalMs: 5,
      showsWrite: evidenceOf({ before: nb({}), restarted: true }),
    }).catch((e: unknown) => e)) as AicpError;
    expect(error).toBeInstanceOf(AicpError);
    expect(error.message).toMatch(/still listed as before the change \(status "Running", image "lab:1", updated_at not sent\)/);
  });
});
