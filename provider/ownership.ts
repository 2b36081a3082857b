/**
 * Who owns an object on the platform. A name proves nothing: names are
 * derived from project, stack and resource name, and two stacks of one name in
 * two backends, or two resources of one name under two parents, derive the
 * same one. So everything the provider creates carries a mark, computed by the
 * SDK from this stack's own random id (kept in the state by the stack-mark
 * resource, provider/stack-mark.ts) and the resource's place in the program, and
 * the provider adopts an object only when its mark is this resource's.
 *
 * Where the platform keeps the mark: a notebook's environment variable
 * `PULUMI_AICP_MARK` (envs are fixed at create, platform-api B1), and the
 * end of a resource group's description (the only free text a group has).
 */

import { AicpError } from "../client/errors";

/** Environment variable of a notebook that holds its mark. */
export const markEnvName = "PULUMI_AICP_MARK";

/**
 * Environment variable of a notebook that holds when its create was sent (ISO 8601, the sending runner's
 * clock): the evidence a runner without the create journal reads (docs/identity.md, "Stated send time").
 */
export const sentAtEnvName = "PULUMI_AICP_CREATE_SENT_AT";

/**
 * Environment variable of a notebook that holds its resource's place in its stack: the auto-name suffix,
 * a digest of project, stack, kind, name, parents and the stack identity (identity.ts). The mark leaves the
 * stack out on the TypeScript front, so two stacks given one pinned identity (`--copy-config-from`) share
 * marks; the place tells their notebooks apart (docs/identity.md, "The evidence").
 */
export const placeEnvName = "PULUMI_AICP_PLACE";

/** The environment variables the provider writes, which the program may not set and its outputs do not show. */
export const providerEnvNames: readonly string[] = [markEnvName, sentAtEnvName, placeEnvName];

/** How a group's description ends when it carries a mark. */
const groupMarkPattern = /\s*\[pulumi-aicp ([0-9a-f]{8,64})\]$/;
/** The mark as withGroupMark writes it: after exactly one space, or alone; the program's own text keeps its trailing spaces. */
const writtenMarkPattern = /(?:^| )\[pulumi-aicp [0-9a-f]{8,64}\]$/;

/** The mark a notebook's envs carry, if any (envs as a list, or a JSON string of one). */
export function notebookMarkOf(envs: unknown): string | undefined {
  return envValueOf(envs, markEnvName);
}

/** When a notebook's create was sent, as its envs state it (sentAtEnvName), if they do. */
export function notebookSentAtOf(envs: unknown): string | undefined {
  return envValueOf(envs, sentAtEnvName);
}

/** The place a notebook's envs state (placeEnvName), if they do. */
export function notebookPlaceOf(envs: unknown): string | undefined {
  return envValueOf(envs, placeEnvName);
}

function envValueOf(envs: unknown, name: string): string | undefined {
  const list = typeof envs === "string" ? parseJson(envs) : envs;
  if (!Array.isArray(list)) return undefined;
  const entry = list.find((e): e is { name: string; value: unknown } => e !== null && typeof e === "object" && (e as { name?: unknown }).name === name);
  return typeof entry?.value === "string" && entry.value !== "" ? entry.value : undefined;
}

/** The envs without what the provider writes (the mark, the send time), as the program wrote them. */
export function withoutMarkEnv<T>(envs: T): T {
  if (!Array.isArray(envs)) return envs;
  return envs.filter((e) => !(e !== null && typeof e === "object" && providerEnvNames.includes((e as { name?: unknown }).name as string))) as T;
}

/** The envs to send: the program's, then the mark, then when the create was sent and the resource's place. */
export function withMarkEnv<T extends { name: string; value: string }>(
  envs: T[] | undefined,
  mark: string,
  sentAt?: string,
  place?: string,
): Array<T | { name: string; value: string }> {
  const stated = [
    ...(sentAt === undefined ? [] : [{ name: sentAtEnvName, value: sentAt }]),
    ...(place === undefined ? [] : [{ name: placeEnvName, value: place }]),
  ];
  return [...withoutMarkEnv(envs ?? []), { name: markEnvName, value: mark }, ...stated];
}

/** The mark at the end of a group's description, if any. */
export function groupMarkOf(description: unknown): string | undefined {
  return typeof description === "string" ? groupMarkPattern.exec(description)?.[1] : undefined;
}

/** A group's description with the mark appended (replacing any mark it had). */
export function withGroupMark(description: string | undefined, mark: string): string {
  const text = withoutGroupMark(description ?? "");
  return text === "" ? `[pulumi-aicp ${mark}]` : `${text} [pulumi-aicp ${mark}]`;
}

/** The description as the program wrote it. */
export function withoutGroupMark(description: string): string {
  return description.replace(writtenMarkPattern.test(description) ? writtenMarkPattern : groupMarkPattern, "");
}

/** Characters the mark adds to a group's description at most: the limit left for the program's text is the platform's minus these. */
export const groupMarkLength = " [pulumi-aicp ]".length + 32;

/** A mark is 32 lower-case hex characters (see sdk/forward.ts). */
export function isMark(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{32}$/.test(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a read, an update or a delete is told about who this resource is (see claimedMark). */
export interface Claim {
  /** The mark the state records for this resource. */
  ownerMark?: unknown;
  /** Set by `Notebook.get` and `ResourceGroup.get`: a read-only lookup, which takes nothing over. */
  readById?: unknown;
  /** Set by the plugin's Read of an id with nothing recorded (an import, or a get): the mark the resource has (plugin/identity.ts). */
  importAs?: unknown;
}

/** The mark this resource claims, or undefined for a read-only lookup that claims nothing. */
function claimedMark(claim: Claim): { mark: string | undefined } | undefined {
  if (typeof claim.importAs === "string") return { mark: claim.importAs };
  if (claim.readById === true) return undefined;
  return { mark: typeof claim.ownerMark === "string" ? claim.ownerMark : undefined };
}

/**
 * Why an object that carries another resource's mark is not this resource's
 * to change or delete, or undefined when it is: the stack (or resource) that
 * made it manages it, and taking it here would let one stack's destroy delete
 * the other's work. An object without a mark (made in the console) is anyone's.
 */
export function ownedElsewhere(noun: string, id: string, liveMark: string | undefined, claim: Claim): AicpError | undefined {
  const claimed = claimedMark(claim);
  if (claimed === undefined || liveMark === undefined || liveMark === claimed.mark) return undefined;
  const move =
    noun === "notebook"
      ? "A notebook's mark cannot change (its environment is fixed at create), so it stays with the stack that made it; read it from here with " +
        "`Notebook.get` (or the plugin's get) instead."
      : "To move it here, remove the `[pulumi-aicp …]` mark from its description in the console once the owner's stack no longer manages it (`pulumi state " +
        "delete <URN>` there), then take it over with `adoptId`.";
  return new AicpError(
    "AICP_CONFLICT",
    `${noun} ${id} carries the mark ${liveMark} of another Pulumi resource, not this resource's: the stack that made it manages it, and this stack will ` +
      `not change or delete it. ` +
      `Nothing was changed. If this stack imported it, remove it from this stack's state with \`pulumi state delete <URN>\` (\`pulumi stack --show-urns\` ` +
      `lists it). ${move}`,
  );
}

/** Refuses a write (update or delete) of an object another resource marks: see ownedElsewhere. */
export function refuseOwnedElsewhere(noun: string, id: string, liveMark: string | undefined, claim: Claim): void {
  const refusal = ownedElsewhere(noun, id, liveMark, claim);
  if (refusal) throw refusal;
}
