/**
 * check and diff of a Notebook: what the engine asks before anything changes
 * (a preview runs them too, so they only read). Besides validating and
 * comparing (notebook/inputs.ts), they look up a take-over by adoptId and
 * decide whether it may happen, replace a Failed notebook that never ran, and
 * warn of schedules set outside the program.
 *
 * A take-over needs a deliberate id, never a name (a name alone proves
 * nothing). It is refused, with nothing changed, when another Pulumi
 * resource's mark is on the notebook, when its name differs from one the
 * program pins (notebooks cannot be renamed), or when matching the program
 * would replace it: taking a notebook over must never destroy the work in it.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as wire from "../../client/wire";
import { AicpError, asOneLine } from "../../client/errors";
import { currentClient, currentListing, currentSettings, learnedZone, settingsCheckable } from "../context";
import { isProvisional, nameHeldByAnother } from "../create-once";
import type { DiffWithProperties } from "../diff-result";
import { warn } from "../engine-log";
import { compact, unknownPaths, withoutUnknowns } from "../inputs";
import type { NotebookListing } from "./listing";
import { notebookNameHolders } from "./names";
import { diffNotebook, outsideSchedules } from "./diff";
import { checkNotebook, defaults, type NotebookInputs } from "./inputs";
import { configuredZone, digestKey, outputs, resolvedUuid, type NotebookOutputs } from "./outputs";
import { notebookMarkOf } from "../ownership";
import { isRecordedSecret } from "../secrets";

export async function check(olds: Partial<NotebookInputs>, news: NotebookInputs): Promise<pulumi.dynamic.CheckResult<NotebookInputs>> {
  const { inputs: checked, failures } = checkNotebook(olds, news, currentSettings(), learnedZone());
  // No undefined members: the engine cannot encode them and would print only "Unexpected struct type".
  const inputs = compact(checked);
  const known = withoutUnknowns(failures, news);
  if (known.length > 0) return { inputs, failures: known };
  // A create under a pinned name: a new resource's (not a take-over), or the replacement of a renamed one.
  const createsUnderPin = !inputs.autoNamed && (Object.keys(olds).length === 0 ? !inputs.adoptId : olds.name !== inputs.name);
  if (createsUnderPin && settingsCheckable() && unknownPaths(inputs).length === 0) {
    // A preview refuses a pinned name held by another (create-once.ts), from the walk the checks share; the create looks again. Nothing is written.
    const namespace = String(inputs.namespace);
    const holders = notebookNameHolders(currentClient(), namespace, String(inputs.name), inputs.ownerMark);
    const held = await nameHeldByAnother(
      { ...holders, findByName: () => currentListing().holdersForCheck(namespace, holders.name, holders.findByName) },
      Object.keys(olds).length === 0,
    );
    if (held) throw held;
  }
  if (!inputs.adoptId || unknownPaths(inputs).length > 0) return { inputs };
  // adoptId is read at create only: an existing resource (and the create of its replacement) ignores it.
  if (Object.keys(olds).length > 0) {
    if (olds.adoptId !== inputs.adoptId)
      await warn(`Notebook ${inputs.logicalName}: adoptId is read only when the resource is created; the change to ${inputs.adoptId} is ignored.`);
    const { adoptId: _ignored, ...rest } = inputs;
    return { inputs: rest as NotebookInputs };
  }
  return previewAdoption(inputs);
}

export async function diff(id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<DiffWithProperties> {
  const found = diffNotebook(olds, news, digestKey(), configuredZone());
  const updates = found.updates;
  await warnOfOutsideSchedules(olds, news);
  const replaces = (await neverRanReplacement(id, olds, news)) ? [...new Set([...found.replaces, "desiredState"])] : found.replaces;
  // A replacement creates, and a create sends the registry password, which a digest kept by ignoreChanges does not hold.
  if (replaces.length > 0 && isRecordedSecret(news.customImageSecret)) {
    throw new AicpError(
      "AICP_VALIDATION",
      `notebook ${nameOf(olds) ?? id} would be replaced (${replaces.join(", ")}), and its create sends the registry password; customImageSecret is kept ` +
        `from the state (ignoreChanges), which holds only a digest: give customImageSecret.password or passwordFromEnv in the program. Nothing was changed.`,
    );
  }
  // An unconfirmed create is resolved by an update (notebook/index.ts update), never by a second create.
  if (isProvisional(id) && !resolvedUuid(olds)) return { changes: true, replaces: [], diffs: updates };
  // Every replacement deletes first, also one forced by `--replace` or replaceOnChanges: it keeps the name
  // and the mark, so a new notebook created beside the old one would adopt the old one, which is then deleted.
  return { changes: updates.length + replaces.length > 0, replaces, diffs: [...updates, ...replaces], deleteBeforeReplace: true };
}

/**
 * Looks the notebook up before it is taken over and warns what that will do;
 * an auto-named resource takes the notebook's name (it cannot be renamed). A
 * take-over that will be refused, or a lookup that fails, fails the preview:
 * the inputs recorded must hold the name the create will use.
 */
async function previewAdoption(inputs: NotebookInputs): Promise<pulumi.dynamic.CheckResult<NotebookInputs>> {
  try {
    const plan = await planAdoption(currentListing(), inputs, digestKey(), currentClient().timeZone.offset);
    await warn(describeAdoption(inputs.logicalName, plan));
    return { inputs: { ...inputs, name: plan.inputs.name } };
  } catch (error) {
    const reason = error instanceof AicpError ? asOneLine(error).message : String(error);
    return { inputs, failures: [{ property: "adoptId", reason: `Notebook ${inputs.logicalName} cannot take over ${inputs.adoptId}: ${reason}` }] };
  }
}

/**
 * A notebook whose create failed before it ever ran holds no work, and a new
 * notebook is what the program asks for (a platform may refuse to start a
 * Failed one). Replaced only on the platform's own word, read now: still
 * Failed, with a running time of 0. A stale record, a notebook started in the
 * console since, or a lookup that fails is never replaced on its own.
 */
async function neverRanReplacement(id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<boolean> {
  if (olds.neverRan !== true || olds.status !== "Failed" || isProvisional(id) || (news.desiredState ?? defaults.desiredState) !== "Running") return false;
  const live = await currentListing()
    .locate(String(olds.namespace), id, nameOf(olds))
    .catch(() => undefined);
  if (live?.status !== "Failed" || live.running_time !== 0) return false;
  await warn(
    `notebook ${nameOf(olds) ?? id} failed at its create and never ran (${live.reason ?? "no reason given"}; running time 0); it holds no work and is ` +
      `replaced by a new one.`,
  );
  return true;
}

/**
 * A stop or auto-delete time the platform has and the program never set was
 * set outside it (in the console): not the program's to clear, but a preview
 * must not keep quiet about a notebook that is going to stop or vanish.
 */
async function warnOfOutsideSchedules(olds: NotebookOutputs, news: NotebookInputs): Promise<void> {
  const name = nameOf(olds) ?? String(olds.uuid ?? "");
  for (const key of outsideSchedules(olds, news)) {
    const when = String(olds[key]);
    await warn(
      key === "autoDeleteTime"
        ? `notebook ${name} will be DELETED by the platform at ${when}: an auto-delete time was set outside this program. Set autoDeleteTime in the ` +
            `program to manage it, or clear it in the console.`
        : `notebook ${name} will be stopped by the platform at ${when}: a stop time was set outside this program. Set stopTime in the program to manage it.`,
    );
  }
}

/** The name recorded for a notebook, for direct lookups. */
export function nameOf(props: Partial<NotebookOutputs>): string | undefined {
  return typeof props.name === "string" && props.name !== "" ? props.name : undefined;
}

/** What the take-over will do: the notebook, the inputs with its name, and the properties changed in place. */
export interface Adoption {
  notebook: wire.Notebook;
  inputs: NotebookInputs;
  changes: string[];
}

/** Looks the notebook up and decides whether it may be taken over; throws, naming the reason, when not. */
export async function planAdoption(listing: NotebookListing, inputs: NotebookInputs, digestKey: string, zone: number | undefined): Promise<Adoption> {
  const uuid = String(inputs.adoptId);
  const namespace = String(inputs.namespace);
  const notebook = await listing.locate(namespace, uuid, undefined);
  if (!notebook) {
    throw new AicpError(
      "AICP_NOT_FOUND",
      `adoptId ${uuid}: namespace ${namespace} holds no notebook with this uuid (getNotebooks lists them); nothing was changed.`,
    );
  }
  const mark = notebookMarkOf(notebook.envs);
  if (mark !== undefined && mark !== inputs.ownerMark) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: notebook ${notebook.name ?? uuid} was made by another Pulumi resource (it carries that resource's mark) and is managed there; ` +
        `nothing was changed.`,
    );
  }
  if (!inputs.autoNamed && notebook.name && inputs.name !== notebook.name) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: the notebook is named ${JSON.stringify(notebook.name)} and a notebook cannot be renamed; set name to that, or leave name out; ` +
        `nothing was changed.`,
    );
  }
  const adopted: NotebookInputs = { ...inputs, name: notebook.name ?? inputs.name };
  const { updates, replaces } = diffNotebook(outputs(adopted, notebook), adopted, digestKey, zone);
  if (replaces.length > 0) {
    throw new AicpError(
      "AICP_CONFLICT",
      `adoptId ${uuid}: the notebook differs from the program in ${replaces.join(", ")}, which cannot change in place; ` +
        "taking it over would replace it and lose the work in it. Make the program match it, then run `pulumi up`; nothing was changed.",
    );
  }
  return { notebook, inputs: adopted, changes: updates };
}

/** The preview's words for an adoption. */
export function describeAdoption(logicalName: string, plan: Adoption): string {
  const what = plan.changes.length > 0 ? `and change ${plan.changes.join(", ")} in place to match the program` : "with no change (it matches the program)";
  return (
    `Notebook ${logicalName} will take over notebook ${plan.notebook.uuid} (${plan.notebook.name ?? "unnamed"}, ` +
    `${plan.notebook.status ?? "status unknown"}) ${what}.`
  );
}
