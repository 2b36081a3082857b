/**
 * "Gone" needs an answer from the account that owns the object (issue 22,
 * item 2). A group is looked up by its id alone, and the platform answers
 * another account's group as missing; so when a pipeline's keys are switched
 * to another account's, every lookup says "not found" of a group that lives
 * on. Before a lifecycle concludes an object is gone, one cheap request that
 * only the owner may make shows the keys act for the owner.
 */
import { configKeys } from "../client/config";
import { AicpError, describeAnswer } from "../client/errors";
import { currentClient, currentSettings } from "./context";

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
 * `userId`; a state recorded before owners were has none, and the configured
 * aicp:userId stands in) by listing one notebook of the owner's namespace,
 * which the platform refuses to every other account. Resolves when they do;
 * throws an AicpError naming the keys' settings and the owner when they do
 * not, or when no owner is known. Any other failure (network, 5xx) is thrown
 * as it is: in no case may the caller conclude the object is gone.
 *
 * @param owner the user id recorded for the object, if any
 * @param object how messages name the object, e.g. "resource group rg-1"
 */
export async function proveKeysActFor(owner: unknown, object: string): Promise<void> {
  const recorded = typeof owner === "string" && owner !== "";
  const account = recorded ? owner : currentSettings().userId;
  if (account === undefined) {
    throw new AicpError(
      "AICP_CONFIG",
      `${object} is not found with the configured keys, and neither the state nor ${setting("userId")} names the account that made it, ` +
        `so these keys cannot be shown to be that account's; it is kept in the state. Set ${setting("userId")} to the account that made it. ${keysAdvice}`,
    );
  }
  let notebooks: Array<{ user_id?: unknown }>;
  try {
    notebooks = (await currentClient().listNotebooks(account.toLowerCase(), { offset: 0, limit: 1 })).items;
  } catch (error) {
    if (!refusedTheKeys(error)) throw error;
    throw keysRefused(object, account, recorded, `listing the notebooks of namespace ${account.toLowerCase()} was refused (${describeAnswer(error)})`, error);
  }
  // A platform that answered with another account's notebooks did not show these keys act for the owner.
  const stranger = notebooks.find((n) => typeof n.user_id === "string" && n.user_id !== "" && n.user_id.toLowerCase() !== account.toLowerCase());
  if (stranger) throw keysRefused(object, account, recorded, `the namespace of ${account} answered with notebooks of ${String(stranger.user_id)}`);
}

function keysRefused(object: string, owner: string, recorded: boolean, why: string, cause?: AicpError): AicpError {
  const whose = recorded ? "as the state records" : `the configured ${configKeys.userId.key}, as the state records no owner`;
  return new AicpError(
    "AICP_CONFIG",
    `${object} is not found with the configured keys, but it was made by account ${owner} (${whose}) and these keys do not act for it: ${why}. ` +
      `"Not found" from another account's keys does not mean gone, so it is kept in the state and nothing was deleted. ${keysAdvice}`,
    cause === undefined ? {} : { operation: cause.operation, method: cause.method, path: cause.path, status: cause.status, retCode: cause.retCode, requestId: cause.requestId, cause },
  );
}
