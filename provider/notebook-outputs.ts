/**
 * What the state records of a Notebook: the program's inputs (the registry
 * password as a keyed digest, see secrets.ts), overlaid with what the platform
 * returned, without the provider's mark and without server passwords.
 */
import { toCamel } from "./client/case";
import * as wire from "./client/wire";
import { compact } from "./inputs";
import { currentClient, currentSettings } from "./context";
import { bodyOf, resolveImageSecret, type NotebookInputs } from "./notebook-inputs";
import { withoutMarkEnv } from "./ownership";
import { recordImageSecret, withoutServerPasswords } from "./secrets";

export type NotebookOutputs = NotebookInputs & Record<string, unknown> & { uuid: string };

/**
 * Outputs: the inputs, overlaid with what the platform returned (camelCase).
 * On refresh the desired state follows the platform, so a notebook stopped
 * behind Pulumi's back shows as a change to apply.
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
      // A value the platform sent in an unexpected form (platform notes §5) does not replace what the program set.
      .map(([k, v]) => [k, overlay(base[k], timeKeys.has(k) ? zone.normalise(v) : v)]),
  );
  const merged: NotebookOutputs = {
    ...base,
    ...returned,
    desiredState: inputs.desiredState,
    waitForReady: inputs.waitForReady,
    readyTimeoutSeconds: inputs.readyTimeoutSeconds,
    // Passwords never go into outputs (see secrets.ts).
    servers: withoutServerPasswords(Array.isArray(notebook.servers) ? notebook.servers : undefined),
    customImageSecret: base.customImageSecret,
    uuid: notebook.uuid,
  } as unknown as NotebookOutputs;
  if (fromRefresh && (notebook.status === "Stopped" || notebook.status === "Running")) {
    merged.desiredState = notebook.status;
  }
  return compact(merged);
}

/** What the state records of the program's inputs: the create body (registry password as a digest) and the provider's own fields. */
export function recorded(inputs: NotebookInputs): Record<string, unknown> {
  return compact({
    ...bodyOf(inputs),
    logicalName: inputs.logicalName,
    autoNamed: inputs.autoNamed,
    autoNameSuffix: inputs.autoNameSuffix,
    ownerMark: inputs.ownerMark,
    desiredState: inputs.desiredState,
    waitForReady: inputs.waitForReady,
    readyTimeoutSeconds: inputs.readyTimeoutSeconds,
    customImageSecret: isRecorded(inputs.customImageSecret) ? inputs.customImageSecret : recordImageSecret(resolveImageSecret(inputs.customImageSecret), digestKey()),
  });
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
  if (input === undefined) return live;
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


/** Outputs read back on refresh already hold the recorded form. */
function isRecorded(secret: unknown): boolean {
  return secret !== null && typeof secret === "object" && !("password" in secret) && !("passwordFromEnv" in secret);
}


/** The key of password digests: the account's secret key, which never leaves the provider. */
export function digestKey(): string {
  return currentSettings().secretAccessKey ?? "pulumi-aicp";
}
