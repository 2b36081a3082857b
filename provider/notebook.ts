/**
 * Lifecycle of a Notebook (container instance).
 *
 * create goes through the create-once path (create-once.ts): a notebook listed
 * under the name is adopted only when it carries this resource's mark, and a
 * create whose answer was lost is recorded under a provisional id that later
 * runs resolve by the mark, never by a second create.
 * delete composes documented operations: stop, set the auto-delete time to
 * now, wait until the list no longer shows the notebook. Absence is never
 * read from one listing: see confirmedLookup.
 */
import type * as pulumi from "@pulumi/pulumi";
import { toCamel } from "./client/case";
import type { AicpClient } from "./client/client";
import { AicpError } from "./client/errors";
import * as wire from "./client/wire";
import { currentClient, currentListing, currentSettings } from "./context";
import { bodyOf, checkNotebook, defaults, diffNotebook, resolveImageSecret, wireBody, type NotebookInputs } from "./notebook-inputs";
import { type NotebookRef, pollDefaults, waitForRemoval, waitForStatus } from "./notebook-wait";
import type { NotebookListing } from "./notebook-listing";
import { createOnce, isProvisional, UnconfirmedCreate } from "./create-once";
import { notebookTarget, nowOnTheWire, resolveNotebook } from "./notebook-create";
import { withoutMarkEnv } from "./ownership";
import { pause } from "./interrupt";
import { compact, withoutUnknowns } from "./inputs";
import { recordImageSecret, withoutServerPasswords } from "./secrets";
import { hasZone, parseZone, withZone, zoneOf } from "./client/times";

export type NotebookOutputs = NotebookInputs & Record<string, unknown> & { uuid: string };

/** The client, the shared listing, and a write step that invalidates the listing after it. */
function platform() {
  const client = currentClient();
  const listing = currentListing();
  const write = async <T>(namespace: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } finally {
      listing.invalidate(namespace);
    }
  };
  return { client, listing, write };
}
type Platform = ReturnType<typeof platform>;

export async function check(olds: Partial<NotebookInputs>, news: NotebookInputs): Promise<pulumi.dynamic.CheckResult<NotebookInputs>> {
  const { inputs, failures } = checkNotebook(olds, news, currentSettings());
  const known = withoutUnknowns(failures, news);
  return known.length > 0 ? { inputs, failures: known } : { inputs };
}

export async function diff(id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<pulumi.dynamic.DiffResult> {
  const { updates, replaces } = diffNotebook(olds, news, digestKey(), configuredZone());
  // An unconfirmed create is resolved by an update (see update), never by a second create.
  if (isProvisional(id)) return { changes: true, replaces: [] };
  // The replacement keeps the name (auto-names are stable), and a name cannot exist twice.
  return { changes: updates.length + replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
}

export async function create(inputs: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
  const p = platform();
  const created = await createOrRecord(p, inputs);
  try {
    const settled = await settle(p, inputs, created, undefined);
    return { id: created.uuid, outs: outputs(inputs, settled) };
  } catch (error) {
    // Created but not ready: Pulumi records it with this id, so nothing is orphaned.
    throw partlyCreated(error, created.uuid, { ...outputs(inputs, created), __provider: inputs.__provider });
  }
}

/**
 * Sends the create at most once (create-once.ts). When its outcome stays
 * unknown, the error carries a provisional id and what was sent, so the state
 * remembers the create and the next run resolves it by its mark.
 */
async function createOrRecord(p: Platform, inputs: NotebookInputs & { __provider?: string }): Promise<wire.Notebook> {
  const body = wireBody(inputs);
  try {
    return await createOnce(notebookTarget(p.client, p.write, body, inputs.ownerMark, Math.min(waitOptions(inputs).timeoutMs, 30_000)));
  } catch (error) {
    if (!(error instanceof UnconfirmedCreate)) throw error;
    throw partlyCreated(error, error.provisionalId, { ...recorded(inputs), createSentAt: error.sentAt, __provider: inputs.__provider });
  }
}

export async function read(id: string, props: NotebookOutputs): Promise<pulumi.dynamic.ReadResult<NotebookOutputs>> {
  const namespace = String(props.namespace ?? currentSettings().userId?.toLowerCase() ?? "");
  if (!namespace) return { id: "", props: {} as NotebookOutputs };
  const resolved = await resolveNotebook(currentClient(), id, props, 0);
  // An unconfirmed create that may still appear stays recorded; one past its window was never made.
  if ("pending" in resolved) return { id, props };
  if ("neverMade" in resolved) return { id: "", props: {} as NotebookOutputs };
  const found = resolved.found ?? (await confirmedLookup(currentListing(), { namespace, uuid: resolved.uuid, name: nameOf(props) }, refreshAgeMs));
  // An empty id tells the engine the notebook is gone, so refresh drops it; two direct lookups, a pause apart, agreed.
  if (!found) return { id: "", props: {} as NotebookOutputs };
  learnZoneFromState(props.createdAt, found.created_at);
  return { id: found.uuid, props: outputs(props, found, true) };
}

export async function update(id: string, olds: NotebookOutputs, news: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  const p = platform();
  const { client, listing, write } = p;
  const namespace = String(olds.namespace);
  const resolved = await resolveNotebook(client, id, olds, waitOptions(news).timeoutMs);
  if ("pending" in resolved) throw partlyCreated(stillUnconfirmed(olds, resolved.pending), id, { ...olds, __provider: news.__provider });
  // The window passed and the first create never showed: this is the create that was not made.
  if ("neverMade" in resolved) return { outs: (await create({ ...news, ownerMark: olds.ownerMark ?? news.ownerMark })).outs! };
  const uuid = resolved.uuid;
  const confirming = isProvisional(id);
  const { updates } = diffNotebook(olds, news, digestKey(), client.timeZone.offset);
  const changed = new Set(updates);
  if (changed.has("stopTime") && news.stopTime) await write(namespace, () => client.setStopTime(namespace, uuid, news.stopTime!));
  if (changed.has("autoDeleteTime") && news.autoDeleteTime) await write(namespace, () => client.setDeleteTime(namespace, uuid, news.autoDeleteTime!));
  if (changed.has("image") || changed.has("imageType") || changed.has("customImageSecret")) {
    const body = wireBody({ ...news, namespace });
    await write(namespace, () => client.changeImage(namespace, { uuid, image: body.image, image_type: body.image_type, secret: body.custom_image_secret }));
  }
  const ref = { namespace, uuid, name: nameOf(olds) };
  let current = resolved.found ?? (await confirmedLookup(listing, ref));
  if (current) learnZoneFromState(olds.createdAt, current.created_at);
  if (!current) throw new AicpError("AICP_WAIT", `notebook ${uuid} no longer exists in namespace ${namespace}; run \`pulumi refresh\` and then \`pulumi up\` to recreate it.`);
  try {
    if (changed.has("replicaSpecs")) {
      // A new size applies on restart: stop, then start with the new spec (then stop again if so desired).
      if (current.status !== "Stopped") {
        await write(namespace, () => client.stopNotebooks(namespace, [uuid]));
        await waitForStatus(listing, ref, "Stopped", waitOptions(news));
      }
      const spec = wireBody({ ...news, namespace }).replica_specs;
      await write(namespace, () => client.startNotebooks(namespace, { uuids: [uuid], sku_id: spec.specs!, custom_spec: spec }));
      current = (await listing.locate(namespace, uuid, ref.name)) ?? current;
    }
    // Only a change of the desired state (or a resize, or a create confirmed just now) moves the notebook:
    // an unrelated update must not restart a notebook the platform stopped on schedule.
    if (confirming || changed.has("desiredState") || changed.has("replicaSpecs")) current = await settle(p, news, current, undefined);
    return { outs: outputs(news, current) };
  } catch (error) {
    throw partlyCreated(error, id, { ...outputs(news, current), __provider: news.__provider });
  }
}

export async function remove(id: string, props: NotebookOutputs): Promise<void> {
  const { client, listing, write } = platform();
  const namespace = String(props.namespace);
  const resolved = await resolveNotebook(client, id, props, 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds));
  // Destroy never reports a notebook deleted while its create may still appear.
  if ("pending" in resolved) throw stillUnconfirmed(props, resolved.pending);
  if ("neverMade" in resolved) return;
  const ref = { namespace, uuid: resolved.uuid, name: nameOf(props) };
  const current = resolved.found ?? (await confirmedLookup(listing, ref));
  // Gone already: neither the list nor two direct lookups, a pause apart, show it.
  if (!current) return;
  // A delete step answered "not found" may race the notebook's own removal: gone only if the lookups agree.
  const step = async (send: () => Promise<void>) => {
    try {
      await write(namespace, send);
      return "done" as const;
    } catch (error) {
      if (error instanceof AicpError && error.isNotFound && !(await confirmedLookup(listing, ref))) return "gone" as const;
      throw error;
    }
  };
  if (current.status !== "Stopped" && (await step(() => client.stopNotebooks(namespace, [ref.uuid]))) === "gone") return;
  if ((await step(() => client.setDeleteTime(namespace, ref.uuid, nowOnTheWire()))) === "gone") return;
  await waitForRemoval(listing, ref, { timeoutMs: 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) });
}

/**
 * The notebook, or undefined when the listing, a direct lookup, and another
 * direct lookup after a pause all miss it: one list answer that omits a
 * notebook (pages shifting under other writers, a lagging replica) is not "gone".
 */
async function confirmedLookup(listing: NotebookListing, ref: NotebookRef, maxAgeMs?: number): Promise<wire.Notebook | undefined> {
  const first = await listing.locate(ref.namespace, ref.uuid, ref.name, maxAgeMs);
  if (first) return first;
  await pause(pollDefaults().initialIntervalMs);
  listing.invalidate(ref.namespace);
  return listing.locate(ref.namespace, ref.uuid, ref.name, 0);
}

/** The error of an operation on a notebook whose create is still unconfirmed. */
function stillUnconfirmed(props: Partial<NotebookOutputs>, until: string): AicpError {
  return new AicpError(
    "AICP_WAIT",
    `the create of notebook '${String(props.name)}' sent at ${String(props.createSentAt)} is still unconfirmed: no notebook with this resource's mark ` +
      `is listed in namespace ${String(props.namespace)}. The provider sends no second create and reports nothing deleted before ${until}, ` +
      "when a create that never appeared counts as not made. Run the command again later.",
  );
}

/** Brings the notebook to its desired state (starting with `spec` when given) and waits if asked. */
async function settle({ client, listing, write }: Platform, inputs: NotebookInputs, current: wire.Notebook, spec: wire.CreateNotebookRequest["replica_specs"] | undefined): Promise<wire.Notebook> {
  const namespace = String(inputs.namespace);
  const desired = inputs.desiredState ?? defaults.desiredState;
  if (desired === "Stopped" && current.status !== "Stopped") {
    await write(namespace, () => client.stopNotebooks(namespace, [current.uuid]));
  }
  if (desired === "Running" && current.status === "Stopped") {
    const skuId = spec?.specs ?? inputs.replicaSpecs?.specs ?? current.replica_specs?.specs ?? undefined;
    if (!skuId) {
      throw new AicpError("AICP_VALIDATION", "starting a stopped notebook needs the sku id in replicaSpecs.specs (the platform's start operation requires it).");
    }
    await write(namespace, () => client.startNotebooks(namespace, { uuids: [current.uuid], sku_id: skuId, custom_spec: spec }));
  }
  const ref = { namespace, uuid: current.uuid, name: current.name ?? inputs.name };
  if (!(inputs.waitForReady ?? defaults.waitForReady)) return (await listing.locate(namespace, current.uuid, ref.name)) ?? current;
  return waitForStatus(listing, ref, desired, waitOptions(inputs));
}

function waitOptions(inputs: NotebookInputs) {
  return { timeoutMs: 1000 * (inputs.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) };
}

/** An error the engine understands as "created, with this id, but not initialized". */
function partlyCreated(error: unknown, id: string, properties: Record<string, unknown>): Error {
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(`notebook ${id}: ${message}`), { id, properties, reasons: [message] });
}

/**
 * Outputs: the inputs, overlaid with what the platform returned (camelCase).
 * On refresh the desired state follows the platform, so a notebook stopped
 * behind Pulumi's back shows as a change to apply.
 */
function outputs(inputs: NotebookInputs, notebook: wire.Notebook, fromRefresh = false): NotebookOutputs {
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
function recorded(inputs: NotebookInputs): Record<string, unknown> {
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

/**
 * How old the shared listing may be for the reads of a refresh: the engine
 * sends them over several seconds, and a refresh is one point in time. A
 * notebook the snapshot does not show is still looked up directly.
 */
const refreshAgeMs = 5000;

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

/** The name recorded for a notebook, for direct lookups. */
function nameOf(props: Partial<NotebookOutputs>): string | undefined {
  return typeof props.name === "string" && props.name !== "" ? props.name : undefined;
}

/**
 * An earlier run recorded `createdAt` with the platform's zone; the platform
 * still sends the same bare value, so the state tells this process the zone.
 */
function learnZoneFromState(recorded: unknown, live: unknown): void {
  if (typeof recorded !== "string" || typeof live !== "string" || hasZone(live)) return;
  const zone = zoneOf(recorded);
  if (zone !== undefined && withZone(live, zone) === recorded) currentClient().timeZone.learn(zone);
}

/** Outputs read back on refresh already hold the recorded form. */
function isRecorded(secret: unknown): boolean {
  return secret !== null && typeof secret === "object" && !("password" in secret) && !("passwordFromEnv" in secret);
}

/** The configured zone of bare date-times; diff runs without a client, so nothing learned is known there. */
function configuredZone(): number | undefined {
  const zone = currentSettings().platformTimeZone;
  return zone === undefined ? undefined : parseZone(zone);
}

/** The key of password digests: the account's secret key, which never leaves the provider. */
export function digestKey(): string {
  return currentSettings().secretAccessKey ?? "pulumi-aicp";
}
