/**
 * A resource group's delete, confirmed. Some platforms
 * keep a deleted group listed for a while; so the wait for it to go is
 * bounded by the user's timeout (the plugin's customTimeouts.delete, else
 * aicp:deleteTimeoutSeconds), and a 404 on the delete of a group still listed
 * is taken as an earlier delete under way, waited on the same way. "Gone" is
 * only ever what the lookups say, twice a pause apart, never what the delete
 * answered.
 */
import { configKeys } from "../../client/config";
import { AicpError } from "../../client/errors";
import { currentClient, currentSettings } from "../context";
import { cancelled, cancelledError } from "../cancellation";
import { lookedUpTwice } from "../create-once";
import { PollSchedule } from "../poll";

/**
 * The property through which the plugin hands a group's lifecycle the
 * engine's timeout of the operation, in seconds (plugin/timeouts.ts); never
 * recorded in the state.
 */
export const engineTimeoutKey = "engineTimeoutSeconds";

/** The bound of the wait: the engine's timeout of this operation when it gave one, else the setting. */
export function deleteTimeoutMs(props: Record<string, unknown>): number {
  const fromEngine = Number(props[engineTimeoutKey]);
  return Number.isFinite(fromEngine) && fromEngine > 0 ? fromEngine * 1000 : currentSettings().deleteTimeoutMs;
}

/** The settings that make the wait longer, as messages name them. */
const longerWait = `${configKeys.deleteTimeoutSeconds.key} (or ${configKeys.deleteTimeoutSeconds.env}; customTimeouts.delete for the plugin's resources)`;

/**
 * Deletes group `rgId` and resolves once the lookups agree it is gone,
 * within `timeoutMs`. Throws AICP_WAIT when an accepted delete's group is
 * still listed at the end, and the client's AICP_ROUTE error (which names
 * both readings) when a delete answered 404 yet the group stayed listed.
 */
export async function deleteAndConfirm(rgId: string, timeoutMs: number): Promise<void> {
  const client = currentClient();
  const outcome = await client.tryDeleteResourceGroup(rgId);
  // One lookup per poll interval, not a growing one: a group the platform removes in the background goes at any moment.
  const schedule = new PollSchedule(timeoutMs, { maxIntervalMs: 0 });
  const seconds = Math.round(timeoutMs / 100) / 10;
  for (;;) {
    // Gone only when two lookups a pause apart agree: a replacement created next must not find (and adopt) it.
    if ((await lookedUpTwice(() => client.getResourceGroup(rgId))) === undefined) return;
    if (cancelled()) throw cancelledError(`waiting for resource group ${rgId} to be removed (its delete was sent)`);
    if (Date.now() >= schedule.deadline) {
      if (outcome.answer === "listed") {
        const e = outcome.error;
        throw new AicpError(
          "AICP_ROUTE",
          `resource group ${rgId} is still listed ${seconds} s after its delete answered 404. ${e.message} In that case raise ${longerWait} to wait longer ` +
            `at once.`,
          {
            operation: e.operation,
            method: e.method,
            path: e.path,
            status: e.status,
            retCode: e.retCode,
            requestId: e.requestId,
            cause: e,
          },
        );
      }
      throw new AicpError(
        "AICP_WAIT",
        `resource group ${rgId} is still listed ${seconds} s after its delete was accepted; the platform may remove groups in the background. ` +
          `Run \`pulumi destroy\` (or \`pulumi up\`) again to wait again (a delete of a group the platform is still removing is taken as under way), or ` +
          `raise ${longerWait} to wait longer at once.`,
      );
    }
    await schedule.next();
  }
}
