/**
 * What the in-process engine (stack.ts) records of a Create or an Update, as the engine's CreateStep and UpdateStep
 * do (pkg/resource/deploy/step.go, pulumi v3.259.0): the answer's id and outputs, or, for a call that failed but made
 * an object (ErrorResourceInitFailed), its id, state and reasons. Apart from stack.ts, which decides the steps, so
 * the rule for a partly made object reads in one place.
 */
import { createCall, updateCall } from "./calls";
import { ProviderCallError, type PluginProcess } from "./plugin-process";
import type { Declared, Props, Recorded } from "./types";

/** Create: the new record pushed onto `resources`, its outputs with the id; a failed create that made an object is pushed too, then the error thrown. */
export async function createRecorded(p: PluginProcess, resources: Recorded[], declared: Declared, urn: string, inputs: Props): Promise<Recorded> {
  const record = (id: string, outputs: Props, initErrors: string[]): Recorded => {
    const made: Recorded = { kind: declared.kind, name: declared.name, urn, id, inputs, outputs: { ...outputs }, initErrors, provider: declared.provider };
    resources.push(made);
    return made;
  };
  try {
    const answer = await createCall(p, urn, inputs, declared.timeouts?.create ?? 0);
    const made = record(answer.id, answer.outputs, []);
    return { ...made, outputs: { ...made.outputs, id: made.id } };
  } catch (error) {
    const failed = error instanceof ProviderCallError ? error.failure.initFailed : undefined;
    if (failed) record(failed.id, failed.properties, failed.reasons);
    throw error;
  }
}

/** Update: `old` updated in place, its outputs with the id; a failed update that made an object records its state and reasons, then the error is thrown. */
export async function updateRecorded(p: PluginProcess, old: Recorded, news: Props, declared: Declared): Promise<Recorded> {
  try {
    const outputs = await updateCall(p, old, news, declared);
    Object.assign(old, { inputs: news, outputs, initErrors: [] });
    return { ...old, outputs: { ...old.outputs, id: old.id } };
  } catch (error) {
    const failed = error instanceof ProviderCallError ? error.failure.initFailed : undefined;
    if (failed) Object.assign(old, { id: failed.id || old.id, inputs: news, outputs: failed.properties, initErrors: failed.reasons });
    throw error;
  }
}
