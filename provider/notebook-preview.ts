/**
 * What check and diff of a Notebook look up or warn about before anything
 * changes (a preview runs them too, so they only read): a take-over by
 * adoptId, a Failed notebook that never ran, and schedules set outside the
 * program.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AicpError, asOneLine } from "../client/errors";
import { currentClient, currentListing } from "./context";
import { isProvisional } from "./create-once";
import { warn } from "./engine-log";
import { describeAdoption, planAdoption } from "./notebook-create";
import { defaults, outsideSchedules, type NotebookInputs } from "./notebook-inputs";
import { digestKey, type NotebookOutputs } from "./notebook-outputs";

/**
 * Looks the notebook up before it is taken over and warns what that will do;
 * an auto-named resource takes the notebook's name (it cannot be renamed). A
 * take-over that will be refused, or a lookup that fails, fails the preview:
 * the inputs recorded must hold the name the create will use.
 */
export async function previewAdoption(inputs: NotebookInputs): Promise<pulumi.dynamic.CheckResult<NotebookInputs>> {
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
export async function neverRanReplacement(id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<boolean> {
  if (olds.neverRan !== true || olds.status !== "Failed" || isProvisional(id) || (news.desiredState ?? defaults.desiredState) !== "Running") return false;
  const live = await currentListing()
    .locate(String(olds.namespace), id, nameOf(olds), 0)
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
export async function warnOfOutsideSchedules(olds: NotebookOutputs, news: NotebookInputs): Promise<void> {
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
