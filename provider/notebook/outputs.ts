/**
 * What the state records of a Notebook: the program's inputs (the registry
 * password as a keyed digest, see secrets.ts), overlaid with what the platform
 * returned, without the provider's mark and without server passwords.
 */
import { toCamel, type SnakeToCamel } from "../../client/case";
import * as wire from "../../client/wire";
import { hasZone, parseZone, withZone, zoneOf } from "../../client/times";
import { compact } from "../inputs";
import { currentClient, currentSettings } from "../context";
import { bodyOf, defaults, resolveImageSecret, type NotebookInputs } from "./inputs";
import { sameInstant } from "./times";
import { withoutMarkEnv } from "../ownership";
import { observedDesiredState } from "./state";
import { isRecordedSecret, recordImageSecret, withoutServerPasswords, type RecordedImageSecret } from "../secrets";

/** What the provider keeps of a notebook beside the program's fields and the platform's: the state its lifecycle moves through. */
export interface NotebookPrivateState {
  /** The notebook's uuid (the resource id, except while a create is unconfirmed). */
  uuid: string;
  /** When a create whose answer was lost was sent; recorded under a provisional id (create-once.ts). */
  createSentAt?: string;
  /** Failed at its create and seen Failed ever since: a replacement, not a restart (notebook/preview.ts). */
  neverRan?: boolean;
  /** A size recorded for a stopped notebook, applied at its next start (notebook/update.ts). */
  resizeAtStart?: boolean;
  /** Which input fields the program set, as a tree of `true` leaves (refreshedInputs). */
  inputShape?: unknown;
  /** Read by its id (Notebook.get): nothing is created, changed or deleted. */
  readById?: boolean;
}

/** The platform's fields of a notebook, camelCase, as recorded (null where the platform sent none). */
export type NotebookPlatformFields = { [K in keyof typeof wire.notebook.shape as SnakeToCamel<K & string>]?: unknown };

/** What the state records of a notebook. */
export type NotebookOutputs = NotebookInputs & NotebookPlatformFields & NotebookPrivateState;

/**
 * Outputs: the inputs, overlaid with what the platform returned (camelCase).
 * On refresh the desired state follows the platform where the notebook has
 * settled elsewhere (notebook/state.ts), so a notebook stopped behind
 * Pulumi's back, or Failed, shows as a change to apply. `inputShape` records
 * which input fields the program set, for the inputs read returns.
 */
export function outputs(inputs: NotebookInputs, notebook: wire.Notebook, fromRefresh = false): NotebookOutputs {
  const live = toCamel(wire.notebook, notebook) as Record<string, unknown>;
  // The mark is the provider's, not the program's: it never shows as a change of envs.
  if (live.envs !== undefined) live.envs = withoutMarkEnv(live.envs);
  const base = recorded(inputs);
  const zone = currentClient().timeZone;
  const returned = Object.fromEntries(
    Object.entries(live)
      .filter(([, v]) => v !== null && v !== undefined)
      // A value the platform sent in an unexpected form (platform-api B5) does not replace what the program set.
      .map(([k, v]) => {
        const given: unknown = Reflect.get(base, k);
        return [k, overlay(given, timeKeys.has(k) ? sameTimeAsRecorded(given, zone.normalise(v), zone.offset) : v)];
      }),
  );
  const merged: NotebookOutputs = {
    ...base,
    ...returned,
    logicalName: inputs.logicalName,
    desiredState: inputs.desiredState ?? defaults.desiredState,
    waitForReady: inputs.waitForReady ?? defaults.waitForReady,
    readyTimeoutSeconds: inputs.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds,
    // Passwords never go into outputs (see secrets.ts).
    servers: withoutServerPasswords(Array.isArray(live.servers) ? live.servers : undefined),
    customImageSecret: recordedSecret(inputs),
    uuid: notebook.uuid,
  };
  const zoneOffset = zone.offset ?? 0;
  if (fromRefresh) {
    merged.desiredState = observedDesiredState(
      notebook,
      inputs.desiredState === "Stopped" ? "Stopped" : "Running",
      zoneOffset,
    ) as NotebookInputs["desiredState"];
    // A size recorded for a parked notebook waits for its next start (notebook/update.ts).
    if ((inputs as Partial<NotebookOutputs>).resizeAtStart === true && notebook.status === "Stopped")
      Object.assign(merged, { replicaSpecs: inputs.replicaSpecs, resizeAtStart: true });
  }
  // Failed at its create, and seen Failed ever since (any other status may mean it ran): see notebook/preview.ts neverRanReplacement.
  if ((inputs as Partial<NotebookOutputs>).neverRan === true && notebook.status === "Failed") merged.neverRan = true;
  // Every output is recorded, null where neither the platform nor the program gives a value: one missing from the state is unknown in every preview.
  for (const key of wire.notebookOutputs) if (Reflect.get(merged, key) === undefined) Reflect.set(merged, key, null);
  // The shape of what `base` recorded: recorded() again would digest the registry password a second time.
  merged.inputShape = fromRefresh ? (inputs as Partial<NotebookOutputs>).inputShape : shapeOf(base);
  return compact(merged);
}

/** What the state records of the program's inputs: the create body (registry password as a digest) and the provider's own fields. */
export function recorded(inputs: NotebookInputs): Partial<NotebookOutputs> {
  return compact({
    ...(bodyOf(inputs) as Partial<NotebookInputs>),
    logicalName: inputs.logicalName,
    autoNamed: inputs.autoNamed,
    autoNameSuffix: inputs.autoNameSuffix,
    ownerMark: inputs.ownerMark,
    // Kept, so that a refresh or destroy in a process that never ran check still leaves them out of its messages (secrets.ts).
    secretInputs: inputs.secretInputs,
    desiredState: inputs.desiredState,
    waitForReady: inputs.waitForReady,
    readyTimeoutSeconds: inputs.readyTimeoutSeconds,
    customImageSecret: recordedSecret(inputs),
  });
}

/** The registry credentials as the state records them: a keyed digest of the password, never the password (secrets.ts). */
function recordedSecret(inputs: NotebookInputs): RecordedImageSecret | undefined {
  return isRecordedSecret(inputs.customImageSecret) ? inputs.customImageSecret : recordImageSecret(resolveImageSecret(inputs.customImageSecret));
}

/**
 * The inputs a refresh records (read returns them): every input field the
 * program set, with the value the platform has now. Preview then names each
 * property that drifted, and `ignoreChanges` keeps the platform's value.
 * Undefined for a state written before inputShape was recorded: the engine
 * then keeps the inputs it has.
 */
export function refreshedInputs(outs: NotebookOutputs): Partial<NotebookOutputs> | undefined {
  const shape = outs.inputShape;
  if (shape === undefined || shape === null || typeof shape !== "object") return undefined;
  const inputs = project(shape, outs) as Partial<NotebookOutputs>;
  // Stopped or Failed out of band is named even where the program leaves desiredState to its default.
  if (outs.desiredState !== undefined && outs.desiredState !== defaults.desiredState) inputs.desiredState = outs.desiredState;
  return compact(inputs);
}

/** Which fields a value has, as a tree of `true` leaves (no values: nothing secret). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return true;
}

/** `value` cut down to the fields of `shape` (list items beyond the shape kept whole). */
function project(shape: unknown, value: unknown): unknown {
  if (Array.isArray(shape)) return Array.isArray(value) ? value.map((v, i) => (i < shape.length ? project(shape[i], v) : v)) : value;
  if (shape === null || typeof shape !== "object" || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const fields = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(shape)
      .filter((k) => fields[k] !== undefined)
      .map((k) => [k, project((shape as Record<string, unknown>)[k], fields[k])]),
  );
}

/**
 * The recorded spelling of a date-time when the platform's names the same
 * instant ("…T18:00:00" in a UTC platform for the program's "…T18:00:00Z"):
 * a preview must not show a change of spelling as a change.
 */
function sameTimeAsRecorded(recordedValue: unknown, live: unknown, zone: number | undefined): unknown {
  return typeof recordedValue === "string" && sameInstant(live, recordedValue, zone) ? recordedValue : live;
}

/** Date-time outputs, written with the platform's zone once it is known (see client/times.ts). */
const timeKeys = new Set(["stopTime", "autoDeleteTime", "createdAt", "updatedAt"]);

/**
 * The platform's value, except where it differs in type from what the
 * program set (a list sent as a string, a number as "10Gi"): there, at any
 * depth, the program's value stands, so an answer in an unexpected form can
 * never show as a change to replace.
 */
export function overlay(input: unknown, live: unknown): unknown {
  const kind = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  // null is what the outputs record where nothing was set (outputs()), never a program's value.
  if (input === undefined || input === null) return live;
  if (live === undefined || live === null) return input;
  if (kind(input) !== kind(live)) return input;
  if (Array.isArray(input) && Array.isArray(live)) return input.length === live.length ? live.map((v, i) => overlay(input[i], v)) : live;
  if (kind(input) === "object") {
    const wanted = input as Record<string, unknown>;
    const got = live as Record<string, unknown>;
    return { ...got, ...Object.fromEntries(Object.keys(wanted).map((k) => [k, overlay(wanted[k], got[k])])) };
  }
  return live;
}

/** The key of password digests recorded by earlier versions (secrets.ts matchesDigest): the secret key configured then. */
export function digestKey(): string {
  return currentSettings().secretAccessKey ?? "pulumi-aicp";
}

/**
 * Outputs after an update: the program's inputs over what the platform has;
 * `recordedSpec` replaces the platform's size (one waiting for the next start
 * when `atNextStart`, or the old one after a refused resize).
 */
export function updatedOutputs(news: NotebookInputs, current: wire.Notebook, recordedSpec: Partial<NotebookInputs>, atNextStart: boolean): NotebookOutputs {
  const outs = outputs(news, current);
  if (!recordedSpec.replicaSpecs) return outs;
  const replicaSpecs = { ...(outs.replicaSpecs as object), ...recordedSpec.replicaSpecs };
  return (atNextStart ? { ...outs, replicaSpecs, resizeAtStart: true } : { ...outs, replicaSpecs }) as NotebookOutputs;
}

/** The uuid an earlier update resolved a provisional id to, recorded in the outputs. */
export function resolvedUuid(props: Partial<NotebookOutputs>): string | undefined {
  return typeof props.uuid === "string" && props.uuid !== "" ? props.uuid : undefined;
}

/**
 * An earlier run recorded `createdAt` with the platform's zone; the platform
 * still sends the same bare value, so the state tells this process the zone.
 */
export function learnZoneFromState(recordedValue: unknown, live: unknown): void {
  if (typeof recordedValue !== "string" || typeof live !== "string" || hasZone(live)) return;
  const zone = zoneOf(recordedValue);
  if (zone !== undefined && withZone(live, zone) === recordedValue) currentClient().timeZone.learn(zone);
}

/** The configured zone of bare date-times; diff runs without a client, so nothing learned is known there. */
export function configuredZone(): number | undefined {
  const zone = currentSettings().platformTimeZone;
  return zone === undefined ? undefined : parseZone(zone);
}
