/**
 * The settings check reads a whole first page of the namespace's notebooks
 * (provider/settings-check.ts). One notebook the client cannot read in that
 * page says nothing of the settings: the check asks for one notebook, as it
 * did before it read a page, rather than stay undetermined and ask again at
 * every operation.
 */
import { describe, expect, it } from "vitest";
import type { AicpClient } from "../../client/client";
import type { Settings } from "../../client/config";
import { malformed } from "../../client/parse";
import type { NotebookListing } from "../../provider/notebook/listing";
import { checkSettingsWithPlatform } from "../../provider/settings-check";

const settings = { userId: "usr-Check" } as Settings;

describe("checkSettingsWithPlatform", () => {
  it("an unreadable notebook in the first page: checked by a list of one notebook", async () => {
    const asked: unknown[] = [];
    const client = {
      listNotebooks: async (namespace: string, query: unknown) => (asked.push([namespace, query]), { items: [] }),
    } as unknown as AicpClient;
    const listing = {
      firstPage: async () => {
        throw malformed("listNotebooks", "an unreadable item 3: uuid: Invalid input");
      },
    } as unknown as NotebookListing;
    expect(await checkSettingsWithPlatform(settings, client, listing)).toBe("checked");
    expect(asked).toEqual([["usr-check", { offset: 0, limit: 1 }]]);
  });

  it("a page the platform refuses is judged as before: the refusal is not retried with one notebook", async () => {
    const asked: unknown[] = [];
    const client = { listNotebooks: async () => (asked.push("one"), { items: [] }) } as unknown as AicpClient;
    const { AicpError } = await import("../../client/errors");
    const listing = {
      firstPage: async () => {
        throw new AicpError("AICP_HTTP", "listNotebooks failed", { operation: "listNotebooks", status: 503 });
      },
    } as unknown as NotebookListing;
    expect(await checkSettingsWithPlatform(settings, client, listing)).toBe("undetermined");
    expect(asked).toEqual([]);
  });
});
