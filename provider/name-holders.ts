/**
 * Who holds a name a create is about to use, and the refusal when it is not
 * this resource (createOnce refuses at create, nameHeldByAnother in a preview,
 * with the same error; docs/identity.md).
 */
import { currentFront } from "../client/user-agent";
import { AicpError } from "../client/errors";
import type { CreateTarget } from "./create-once";
import { type Evidence, madeBy, type SentCreate } from "./create-evidence";
import { mayBeRecorded, sentCreate } from "./create-journal";

/**
 * This runner's journal entry of the resource's create: the entry of its mark, unless it names another place
 * (another stack that shares a pinned identity, and so the mark, on this runner).
 */
export function entryOf<T>(target: Evidence<T> & { mark: string | undefined }): SentCreate | undefined {
  const entry = sentCreate(target.mark);
  return entry?.place !== undefined && target.stackPlace !== undefined && entry.place !== target.stackPlace ? undefined : entry;
}

/** What a lookup of a name's holders needs, without the create itself. */
export type NameHolders<T> = Omit<CreateTarget<T>, "send" | "remove" | "watchMs">;

/**
 * What a preview can tell of a create before it is sent: the name is held by an object the create would
 * refuse, with this same error (createOnce). Read-only: `findByName` may read a shared walk
 * (notebook/listing.ts holdersForCheck). A holder with this resource's own mark is this resource's as the
 * create would take it (an entry of this runner's journal it answers to). With `replacing` (a check with no
 * old inputs: the engine's check of a replacement, or of a new resource), any holder with the mark passes:
 * it may be the object the replacement replaces, still holding the name, which the check cannot tell from
 * an orphan of this resource or a copy; the create decides (docs/identity.md). A diff or the check of a
 * rename knows the recorded object and leaves it out itself, so there a marked holder fails.
 */
export async function nameHeldByAnother<T>(target: NameHolders<T>, replacing = false): Promise<AicpError | undefined> {
  const earlier = entryOf(target);
  const named = (await target.findByName()).filter((o) => !target.goingAway?.(o));
  const ownMark = (o: T) => target.markOf(o) === target.mark;
  const others = named.filter((o) => !(ownMark(o) && (replacing || (earlier !== undefined && madeBy(target, o, earlier)))));
  return others.length > 0 ? notOurs(target, others, earlier) : undefined;
}

/**
 * How a user takes an existing object over, in the front in use: the plugin imports; both take `adoptId`. Only a
 * resource not created yet can (an existing one ignores adoptId), which the check of a replacement cannot tell.
 */
function takeOver(id: string): string {
  return currentFront() === "plugin"
    ? `if this resource is not created yet, take it over: \`pulumi import\` of this resource with the id ${id}, or \`adoptId: ${id}\` in its arguments`
    : `if this resource is not created yet, take it over: \`adoptId: "${id}"\` in its arguments (the preview shows what the take-over changes)`;
}

export function notOurs<T>(target: NameHolders<T>, others: T[], earlier: SentCreate | undefined): AicpError {
  const evidence = earlier
    ? `the create journal holds this resource's create sent at ${earlier.sentAt}${earlier.id ? `, answered with ${earlier.id}` : ""}, and this one is not it ` +
      "(made before that, or this machine's clock and the platform's disagree by more than 10 minutes)"
    : "no record of this resource's creates names it";
  // Another stack that shares this one's pinned identity shares the mark, not the place (ownership.ts placeEnvName).
  const elsewhere = (o: T) => {
    const stated = target.statedStackPlaceOf?.(o);
    return target.stackPlace !== undefined && stated !== undefined && stated !== target.stackPlace;
  };
  const whose = (o: T) =>
    target.markOf(o) === undefined
      ? ", not made by Pulumi"
      : target.markOf(o) !== target.mark
        ? ", made by another Pulumi resource"
        : elsewhere(o)
          ? ", carrying this resource's mark but another stack's place: a stack given the same aicp:stackMark (`pulumi stack init " +
            "--copy-config-from` copies it); give each stack its own"
          : `, carrying this resource's mark, but ${evidence}: a copy of its settings, or made by a run whose record was lost`;
  const listed = others.map((o) => `${target.idOf(o)} (${target.statusOf(o) ?? "status unknown"}${whose(o)})`);
  const copied = others.some((o) => target.markOf(o) === target.mark && !elsewhere(o));
  // Only an object no Pulumi resource made can be taken over (a take-over refuses another resource's).
  const adoptable = others.length === 1 && target.markOf(others[0]!) === undefined;
  return new AicpError(
    "AICP_CONFLICT",
    `${target.place} already holds a ${target.noun} named '${target.name}': ${listed.join(", ")}. ` +
      (others.some((o) => target.markOf(o) === target.mark) ? "" : "It does not carry this resource's mark. ") +
      "The provider will not adopt, change or delete it, nor send a second create under its name. Choose another `name` (or a different resource name for an " +
      `auto-name), or remove that ${target.noun} first if it is no longer used${adoptable ? `, or ${takeOver(target.idOf(others[0]!))}` : ""}.` +
      (copied && earlier === undefined ? ` ${withoutRecord(target)}` : "") +
      (copied
        ? ` If it is this resource's own, take it over deliberately: \`adoptId\` (TypeScript) or \`pulumi import\` with its id.` +
          // The engine asks no provider on a forced replacement: only the resource option, or an autonaming pattern without a
          // random part, makes it delete first (its step_generator.go; test/e2e/plugin-replace.test.ts).
          ` If this is \`pulumi up --replace\` of this resource with the plugin, the engine created before deleting: set the resource option ` +
          `\`deleteBeforeReplace: true\`, or once for the stack \`pulumi config set --path pulumi:autonaming.providers.aicp.pattern '\${name}'\` ` +
          `(the engine then deletes first on every replacement; the provider keeps its own names), and run it again.`
        : ""),
  );
}

/** Why a marked object was not taken without a journal entry of its create (madeByCreateOf). */
function withoutRecord<T>(target: NameHolders<T>): string {
  if (target.statedSentAtOf === undefined) return `A ${target.noun} states no send time, so one is never taken without this runner's record of its create.`;
  return target.mark !== undefined && mayBeRecorded(target.mark)
    ? "The state may record an object of this resource that this create is made beside (a targeted replacement), so a marked object is never " +
        "taken without this runner's record of its create. With the plugin, make the engine delete first on every replacement, and such an object " +
        "is taken: `pulumi config set --path pulumi:autonaming.providers.aicp.pattern '${name}'` once for the stack."
    : "A marked object is taken without this runner's record of its create only while the state records no object of this resource, and when the " +
        "platform made it within 2 minutes of the send time it states; where the platform writes times without a zone, that is known to the " +
        "quarter hour only, until aicp:platformTimeZone is set or the zone is learned.";
}
