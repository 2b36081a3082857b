/**
 * Taking over an existing notebook by its uuid (`adoptId`): one made in the
 * console, or one whose state was lost. Only a deliberate id brings it in,
 * never a name (a name alone proves nothing). It is refused, with
 * nothing changed, when another Pulumi resource's mark is on it, when its
 * name differs from one the program pins (notebooks cannot be renamed), or
 * when matching the program would replace it: taking a notebook over must
 * never destroy the work in it.
 */
import { AicpError } from "../client/errors";
import type * as wire from "../client/wire";
import type { NotebookListing } from "./notebook-listing";
import { diffNotebook, type NotebookInputs } from "./notebook-inputs";
import { outputs } from "./notebook-outputs";
import { notebookMarkOf } from "./ownership";

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
  const notebook = await listing.locate(namespace, uuid, undefined, 0);
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
