/**
 * A resource's identity on the platform, one formula for both fronts: the
 * suffix of its auto-name and its ownership mark (ownership.ts) are digests
 * of where the resource is in its program (its place) and of its stack's
 * random id. The TypeScript SDK names the place by project, stack, kind,
 * name and parents (sdk/forward.ts), the plugin by the resource's URN
 * (plugin/identity.ts); each front keeps its own place, since states
 * recorded by earlier versions hold marks made from it.
 */
import { createHash, randomBytes } from "node:crypto";

/**
 * What ends an auto-name: in a stack whose identity this provider made with
 * a token (newStackIdentity), the stack's token, a hyphen, and 7 hex
 * characters of the place; in any other (an identity an earlier version
 * made, or a pinned one), the 7 alone. The same on every run of the stack,
 * different in every other stack. The token lets the list's name filter (a
 * partial match, docs/platform-api.md B1) select the stack's notebooks among
 * everyone else's (notebook/listing.ts); the place tells the stack's
 * resources apart. The form follows the identity, never the version that
 * runs: a create an earlier version sent, whose run was killed before its
 * answer, is found by the next run under the name that version gave it.
 */
export function autoNameSuffixOf(place: string, stackId: string): string {
  const ofPlace = digestHex(`${place}\n${stackId}`, 7);
  return tokenedIdentity.test(stackId) ? `${stackTokenOf(stackId)}-${ofPlace}` : ofPlace;
}

/**
 * The form of every stack identity this provider makes now (newStackIdentity): `s2-` and 32 hex characters. Only the
 * stacks of such an identity have the token in their auto-names; earlier versions recorded any text, so the whole form
 * is tested, not its start.
 */
const tokenedIdentity = /^s2-[0-9a-f]{32}$/;

/** 6 hex characters of the stack identity, in every auto-name of the stack. */
function stackTokenOf(stackId: string): string {
  return digestHex(`aicp-stack-token\n${stackId}`, 6);
}

/**
 * The stack token an auto-name carries (autoNameSuffixOf), for a name filter
 * that selects the stack's notebooks; undefined for a name without one. Any
 * name that looks like one gives a token: a list filtered by it answers only
 * for the notebooks it shows, never that one is gone (notebook/listing.ts).
 */
export function stackTokenInName(name: string | undefined): string | undefined {
  return name === undefined ? undefined : /-([0-9a-f]{6})-[0-9a-f]{7}$/.exec(name)?.[1];
}

/** The 32 hex characters of the ownership mark (ownership.ts). */
export function ownerMarkOf(place: string, stackId: string): string {
  return digestHex(`${stackId}\n${place}`, 32);
}

function digestHex(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/**
 * A stack's identity (docs/identity.md): the one its state records; else the
 * one `aicp:stackMark` pins; else a new random one. A pin that differs from
 * the recorded one is refused: taken, it would give new resources, and every
 * replacement, marks that no object already made carries.
 */
export function stackIdentityOf(recorded: string | undefined, pinned: string | undefined): { value: string } | { problem: string } {
  if (recorded !== undefined && pinned !== undefined && recorded !== pinned) {
    return {
      problem:
        // Neither is quoted: a pin may have been set as a secret, and the plugin records a secret pin as one.
        "aicp:stackMark differs from the identity this stack's state records, from which its marks and auto-names derive: pin that one, or " +
        "remove the setting. `pulumi stack export --show-secrets` shows it (the id of the `aicp-stack-mark` resource with the TypeScript " +
        "package; the provider's `stackMark` input with the plugin); pin it with `pulumi config set --secret aicp:stackMark <it>` (an " +
        "explicit provider: its `stackMark` argument)",
    };
  }
  return { value: recorded ?? pinned ?? newStackIdentity() };
}

/** A new random stack identity, of the form `aicp:stackMark` takes: `s2-` and 32 hex characters (autoNameSuffixOf). */
export function newStackIdentity(): string {
  return `s2-${randomBytes(16).toString("hex")}`;
}
