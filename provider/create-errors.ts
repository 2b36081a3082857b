/**
 * The errors a create leaves with when its outcome is not settled: a partly created object the engine
 * records, and an unconfirmed create still pending or past its window (create-once.ts resolveProvisional).
 */
import { AicpError } from "../client/errors";

/** An error the engine understands as "created, with this id, but not initialized": it records the object. */
export function partlyCreated(noun: string, error: unknown, id: string, properties: Record<string, unknown>): Error {
  const message = error instanceof Error ? error.message : String(error);
  // Led by the cause's code, as every error that leaves the provider is (client/errors.ts asOneLine).
  const code = error instanceof AicpError && !message.startsWith(`${error.code}:`) ? `${error.code}: ` : "";
  return Object.assign(new Error(`${code}${noun} ${id}: ${message}`), { id, properties, reasons: [`${code}${message}`] });
}

/** The error of an operation on an object whose create is still unconfirmed (see resolveProvisional). */
export function stillUnconfirmed(noun: string, place: string, props: { name?: unknown; createSentAt?: unknown }, until: string, unproven = ""): AicpError {
  return new AicpError(
    "AICP_WAIT",
    `the create of ${noun} '${String(props.name)}' sent at ${String(props.createSentAt)} is still unconfirmed: no ${noun} it made ` +
      `is listed in ${place}. The provider sends no second create and reports nothing deleted while it may appear (until ${until}). Run the command again ` +
      `later.${unproven}`,
  );
}

/**
 * The error of an operation on an unconfirmed create whose window has passed
 * without it: the provider cannot tell a create that never reached the
 * platform from one listed late, so the user checks and decides.
 */
export function pastWindow(
  noun: string,
  place: string,
  id: string,
  props: { name?: unknown; createSentAt?: unknown },
  until: string,
  unproven = "",
): AicpError {
  const name = String(props.name);
  return new AicpError(
    "AICP_WAIT",
    `the create of ${noun} '${name}' sent at ${String(props.createSentAt)} (recorded as ${id}) has not been listed in ${place}, and its window ended at ` +
      `${until}. ` +
      `A platform may list a create late, so the provider sends no second create and reports nothing deleted. Check the console for a ${noun} named ` +
      `'${name}': ` +
      `if it is there, run \`pulumi refresh\` once it is listed (it is found by this resource's mark); if you are sure it was never made, remove the ` +
      `record with ` +
      `\`pulumi state delete <URN>\` (\`pulumi stack --show-urns\` lists it) and run \`pulumi up\`.${unproven}`,
  );
}
