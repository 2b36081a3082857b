/**
 * The one read per provider process that checks the settings, so that a
 * preview fails where the `up` after it would (docs/configuration.md): a
 * wrong key, zone, base URL or user id is found at the first resource whose
 * inputs are valid (provider/index.ts), with the line `pulumi-aicp doctor`
 * would print (client/first-contact.ts). Listing the notebooks of the user's
 * namespace exercises all four at once; without a user id, one template.
 * Read-only, and the answer teaches the client the platform's path prefix,
 * which the first lifecycle request would otherwise learn.
 */
import type { AicpClient } from "../client/client";
import { named, type Settings } from "../client/config";
import { AicpError } from "../client/errors";
import { definiteAboutSettings, firstContactLine } from "../client/first-contact";
import type { NotebookListing } from "./notebook/listing";

/**
 * "checked" when the platform takes the settings; "undetermined" when its
 * answer says nothing of them (client/first-contact.ts definiteAboutSettings:
 * a timeout, a 5xx, a busy platform), so the operation goes on and a later
 * one checks again; throws AICP_CONFIG with one line naming the setting when
 * the platform refuses them.
 */
export async function checkSettingsWithPlatform(settings: Settings, client: AicpClient, listing?: NotebookListing): Promise<"checked" | "undetermined"> {
  const namespace = settings.userId?.toLowerCase();
  const operation = namespace === undefined ? "listTemplates" : "listNotebooks";
  try {
    if (namespace === undefined) await client.listTemplates({ limit: 1 });
    // A whole first page where one notebook would do: a refresh's walk starts from it (notebook/listing.ts firstPage).
    else if (listing) await listing.firstPage(namespace).catch(oneNotebookIfUnreadable(() => client.listNotebooks(namespace, { offset: 0, limit: 1 })));
    else await client.listNotebooks(namespace, { offset: 0, limit: 1 });
  } catch (error) {
    if (!(error instanceof AicpError)) throw error;
    if (!definiteAboutSettings(settings, error)) return "undetermined";
    const found = `Found by ${operation}, request id ${error.requestId ?? "(none returned)"}, the one read that checks the settings`;
    const skip = `set ${named("skipCredentialsValidation")} to true to skip it, e.g. for an offline preview`;
    throw new AicpError("AICP_CONFIG", `${firstContactLine(settings, error)}. ${found}; ${skip}.`, {
      operation: error.operation,
      status: error.status,
      retCode: error.retCode,
      requestId: error.requestId,
      cause: error,
    });
  }
  return "checked";
}

/**
 * A page the client cannot read (one odd notebook among a hundred) says
 * nothing of the settings: ask for one notebook instead, as the check did
 * before it read a page. Any other error is the check's to judge.
 */
function oneNotebookIfUnreadable(listOne: () => Promise<unknown>) {
  return async (error: unknown) => {
    if (!(error instanceof AicpError && error.code === "AICP_MALFORMED")) throw error;
    await listOne();
  };
}
