/**
 * "Gone" needs an answer from the account that owns the object (docs/safety.md). A group is looked up by its id alone, and the platform answers
 * another account's group as missing; so when a pipeline's keys are switched
 * to another account's, every lookup says "not found" of a group that lives
 * on. Before a lifecycle concludes an object is gone, one cheap request that
 * only the owner may make shows the keys act for the owner.
 */
import { configKeys } from "../client/config";
import { AicpError, describeAnswer } from "../client/errors";
import { currentClient } from "./context";

/** "aicp:accessKeyId (or QY_ACCESS_KEY_ID)": how the message names a setting. */
function setting(name: "accessKeyId" | "secretAccessKey" | "userId"): string {
  return `${configKeys[name].key} (or ${configKeys[name].env})`;
}

/** What to check, said the same in every refusal. */
const keysAdvice = `Check ${setting("accessKeyId")}, ${setting("secretAccessKey")} and ${setting("userId")}: they must be that account's.`;

/** True for an answer refusing the request itself (the keys, the namespace), as opposed to one that failed on the way. */
function refusedTheKeys(error: unknown): error is AicpError {
  if (!(error instanceof AicpError)) return false;
  return error.code === "AICP_RET_CODE" || (error.code === "AICP_HTTP" && (error.status === 401 || error.status === 403 || error.status === 404));
}

/**
 * Shows that the configured keys act for `owner` (the object's recorded
 * `userId`) by listing one notebook of the owner's namespace: the answer's
 * `meta.X_REQUEST_USER` (spec 1: the requesting user) must be the owner, or,
 * where the platform does not say it, the notebooks listed must be the
 * owner's. A refusal, another user, or an answer that shows nothing proves
 * nothing. The configured aicp:userId never stands in for the owner: a
 * pipeline that switches accounts switches it too. Resolves when the keys are
 * the owner's; throws an AicpError naming the keys' settings and the owner
 * otherwise. Any other failure (network, 5xx) is thrown as it is: in no case
 * may the caller conclude the object is gone.
 *
 * @param owner the user id recorded for the object, if any
 * @param object how messages name the object, e.g. "resource group rg-1"
 */
export async function proveKeysActFor(owner: unknown, object: string): Promise<void> {
  if (typeof owner !== "string" || owner === "") {
    throw new AicpError(
      "AICP_CONFIG",
      `${object} is not found with the configured keys, and the state does not record the account that made it, so these keys cannot be shown to be ` +
        `that account's; it is kept in the state and nothing was deleted. Run \`pulumi refresh\` with that account's keys (it records the owner), or, ` +
        `if the console of that account shows it is gone, remove it with \`pulumi state delete <URN>\`. ${keysAdvice}`,
    );
  }
  let page: { items: Array<{ user_id?: unknown }>; requestUser?: string };
  try {
    page = await currentClient().listNotebooks(owner.toLowerCase(), { offset: 0, limit: 1 });
  } catch (error) {
    if (!refusedTheKeys(error)) throw error;
    throw keysRefused(object, owner, `listing the notebooks of namespace ${owner.toLowerCase()} was refused (${describeAnswer(error)})`, error);
  }
  const same = (user: unknown) => typeof user === "string" && user.toLowerCase() === owner.toLowerCase();
  if (page.requestUser !== undefined) {
    if (same(page.requestUser)) return;
    throw keysRefused(object, owner, `the platform took the request for ${page.requestUser}`);
  }
  // Without X_REQUEST_USER, only the owner's own notebooks show whose keys these are.
  const stranger = page.items.find((n) => !same(n.user_id));
  if (stranger) throw keysRefused(object, owner, `the namespace of ${owner} answered with notebooks of ${String(stranger.user_id)}`);
  if (page.items.length === 0)
    throw keysRefused(
      object,
      owner,
      "the answer named no requesting user (meta.X_REQUEST_USER) and listed no notebook of the account, so nothing showed whose keys these are",
    );
}

function keysRefused(object: string, owner: string, why: string, cause?: AicpError): AicpError {
  return new AicpError(
    "AICP_CONFIG",
    `${object} is not found with the configured keys, but it was made by account ${owner} (as the state records) and these keys were not shown to act for ` +
      `it: ${why}. ` +
      `"Not found" from another account's keys does not mean gone, so it is kept in the state and nothing was deleted. ${keysAdvice}`,
    cause === undefined
      ? {}
      : { operation: cause.operation, method: cause.method, path: cause.path, status: cause.status, retCode: cause.retCode, requestId: cause.requestId, cause },
  );
}
