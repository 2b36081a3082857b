/**
 * The notebook's diff: which properties differ between the recorded outputs
 * and the new inputs, and whether each applies in place or replaces
 * (notebook/inputs.ts holds the inputs' rules; docs/resources.md, Notebook, the
 * table of changes).
 */
import * as wire from "../../client/wire";
import { sameValue } from "../inputs";
import { sameRecordedSecret } from "../secrets";
import {
  bodyKeys,
  defaults,
  fieldOf,
  inPlaceKeys,
  resolveEnvs,
  resolveImageSecret,
  type ImageSecretInput,
  type NotebookInputs,
  type RecordedNotebook,
} from "./inputs";
import { clearableKeys, sameInstant, timeKeys } from "./times";

/** True when every field the user set in `wanted` has the same value in `actual`. */
export function coversSubset(actual: unknown, wanted: unknown): boolean {
  if (wanted === undefined) return true;
  if (Array.isArray(wanted)) {
    return Array.isArray(actual) && actual.length === wanted.length && wanted.every((w, i) => coversSubset(actual[i], w));
  }
  if (wanted !== null && typeof wanted === "object") {
    if (actual === null || typeof actual !== "object") return false;
    return Object.entries(wanted).every(([k, w]) => coversSubset((actual as Record<string, unknown>)[k], w));
  }
  return sameValue(actual, wanted);
}

export interface NotebookDiff {
  updates: string[];
  replaces: string[];
}

/** A recorded value that holds something (the platform sends "" or null for none). */
const holdsValue = (value: unknown) => value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/** Whether the program set `key` when the outputs were recorded (notebook/outputs.ts inputShape); unknown for older states. */
function programHadSet(olds: RecordedNotebook, key: string): boolean {
  const shape = olds.inputShape;
  return shape !== null && typeof shape === "object" && key in shape;
}

/** Stop and auto-delete times the notebook has that the program never set: set outside it. */
export function outsideSchedules(olds: RecordedNotebook, news: NotebookInputs): Array<(typeof clearableKeys)[number]> {
  if (!olds.inputShape) return [];
  return clearableKeys.filter((key) => news[key] === undefined && holdsValue(olds[key]) && !programHadSet(olds, key));
}

/**
 * Properties that differ between the recorded outputs and the new inputs,
 * split by how they apply. An input the program set before and no longer
 * sets is a change too: a time is cleared in place; any other field the
 * platform cannot drop in place replaces the notebook.
 */
export function diffNotebook(olds: RecordedNotebook, news: NotebookInputs, digestKey = "", platformZone?: number): NotebookDiff {
  const updates: string[] = [];
  const replaces: string[] = [];
  for (const key of new Set([...bodyKeys, ...inPlaceKeys])) {
    const wanted = key in defaults && fieldOf(news, key) === undefined ? defaults[key as keyof typeof defaults] : fieldOf(news, key);
    if (wanted === undefined) {
      if (!programHadSet(olds, key) || !holdsValue(fieldOf(olds, key))) continue;
      if ((clearableKeys as readonly string[]).includes(key) || (inPlaceKeys as readonly string[]).includes(key)) updates.push(key);
      else replaces.push(key);
      continue;
    }
    const recorded = key in defaults && fieldOf(olds, key) === undefined ? defaults[key as keyof typeof defaults] : fieldOf(olds, key);
    const same = timeKeys.has(key)
      ? sameInstant(recorded, wanted, platformZone)
      : key === "customImageSecret"
        ? sameImageSecret(recorded, wanted as ImageSecretInput, digestKey)
        : coversSubset(recorded, key === "envs" ? resolveEnvs(wanted) : wanted);
    if (same) continue;
    if ((inPlaceKeys as readonly string[]).includes(key)) updates.push(key);
    // In place when it names a sku (wire.notebookKind.inPlaceWhen): the start operation needs one.
    else if (key in wire.notebookKind.inPlaceWhen && news.replicaSpecs?.specs) updates.push(key);
    else replaces.push(key);
  }
  return { updates, replaces };
}

/** Registry credentials are recorded with a digest of the password (see secrets.ts). */
function sameImageSecret(recorded: unknown, wanted: ImageSecretInput | undefined, legacyKey: string): boolean {
  return sameRecordedSecret(recorded, resolveImageSecret(wanted), legacyKey);
}
