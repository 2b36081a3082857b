/**
 * Lifecycle of a Notebook (container instance).
 *
 * create sends the create request, then waits for the desired state. A notebook
 * already listed under the same name in the namespace is adopted instead of
 * created again: after an interrupted run or a create whose answer was lost,
 * that notebook is ours, and a second one would cost GPU hours.
 * delete composes documented operations: stop, set the auto-delete time to
 * now, wait until the list no longer shows the notebook.
 */
import type * as pulumi from "@pulumi/pulumi";
import { toCamel } from "./client/case";
import type { AicpClient } from "./client/client";
import { AicpError } from "./client/errors";
import * as wire from "./client/wire";
import { currentClient, currentListing, currentSettings } from "./context";
import { bodyOf, checkNotebook, defaults, diffNotebook, resolveImageSecret, wireBody, type NotebookInputs } from "./notebook-inputs";
import { pollDefaults, waitForRemoval, waitForStatus } from "./notebook-wait";
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

export async function diff(_id: string, olds: NotebookOutputs, news: NotebookInputs): Promise<pulumi.dynamic.DiffResult> {
  const { updates, replaces } = diffNotebook(olds, news, digestKey(), configuredZone());
  // The replacement keeps the name (auto-names are stable), and a name cannot exist twice.
  return { changes: updates.length + replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
}

export async function create(inputs: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult<NotebookOutputs>> {
  const p = platform();
  const body = wireBody(inputs);
  const created = await createOnce(p, body, inputs.autoNamed === true, waitOptions(inputs).timeoutMs);
  try {
    const settled = await settle(p, inputs, created, undefined);
    return { id: created.uuid, outs: outputs(inputs, settled) };
  } catch (error) {
    // Created but not ready: Pulumi records it with this id, so nothing is orphaned.
    throw partlyCreated(error, created.uuid, { ...outputs(inputs, created), __provider: inputs.__provider });
  }
}

/**
 * Sends the create at most once. An auto-name is unique to this stack's
 * resource, so a notebook already listed under it is ours (a run interrupted
 * after sending the create) and is adopted. A name the user pinned that is
 * already taken is refused. When the answer to the create is lost, the list is
 * watched for the notebook instead of sending the create again.
 */
async function createOnce({ client, write }: Platform, body: wire.CreateNotebookRequest, autoNamed: boolean, timeoutMs: number): Promise<wire.Notebook> {
  const existing = await liveByName(client, body.namespace, body.name);
  if (existing.length > 0 && autoNamed && existing.length === 1) return existing[0]!;
  if (existing.length > 0) {
    throw new AicpError(
      "AICP_VALIDATION",
      `namespace ${body.namespace} already holds a notebook named '${body.name}' (${existing.map((n) => n.uuid).join(", ")}). ` +
        "Choose another name, remove that notebook, or leave `name` unset so the provider names it.",
    );
  }
  try {
    return await write(body.namespace, () => client.createNotebook(body));
  } catch (error) {
    if (!(error instanceof AicpError && error.outcomeUnknown)) throw error;
    const appeared = await waitForName(client, body.namespace, body.name, Math.min(timeoutMs, 30_000));
    if (appeared) return appeared;
    throw new AicpError(
      error.code,
      `${error.message} No notebook named '${body.name}' appeared in namespace ${body.namespace} afterwards. ` +
        "Run `pulumi up` again: it looks for the notebook by name before creating one.",
      { ...error, cause: error },
    );
  }
}

export async function read(id: string, props: NotebookOutputs): Promise<pulumi.dynamic.ReadResult<NotebookOutputs>> {
  const namespace = String(props.namespace ?? currentSettings().userId?.toLowerCase() ?? "");
  const found = namespace ? await currentListing().locate(namespace, id, nameOf(props), refreshAgeMs) : undefined;
  // An empty id tells the engine the notebook is gone, so refresh drops it; a direct lookup confirmed it.
  if (!found) return { id: "", props: {} as NotebookOutputs };
  learnZoneFromState(props.createdAt, found.created_at);
  return { id, props: outputs(props, found, true) };
}

export async function update(id: string, olds: NotebookOutputs, news: NotebookInputs & { __provider?: string }): Promise<pulumi.dynamic.UpdateResult<NotebookOutputs>> {
  const p = platform();
  const { client, listing, write } = p;
  const namespace = String(olds.namespace);
  const { updates } = diffNotebook(olds, news, digestKey(), client.timeZone.offset);
  const changed = new Set(updates);
  if (changed.has("stopTime") && news.stopTime) await write(namespace, () => client.setStopTime(namespace, id, news.stopTime!));
  if (changed.has("autoDeleteTime") && news.autoDeleteTime) await write(namespace, () => client.setDeleteTime(namespace, id, news.autoDeleteTime!));
  if (changed.has("image") || changed.has("imageType") || changed.has("customImageSecret")) {
    const body = wireBody({ ...news, namespace });
    await write(namespace, () => client.changeImage(namespace, { uuid: id, image: body.image, image_type: body.image_type, secret: body.custom_image_secret }));
  }
  const ref = { namespace, uuid: id, name: nameOf(olds) };
  let current = await listing.locate(namespace, id, ref.name);
  if (current) learnZoneFromState(olds.createdAt, current.created_at);
  if (!current) throw new AicpError("AICP_WAIT", `notebook ${id} no longer exists in namespace ${namespace}; run \`pulumi refresh\` and then \`pulumi up\` to recreate it.`);
  try {
    if (changed.has("replicaSpecs")) {
      // A new size applies on restart: stop, then start with the new spec (then stop again if so desired).
      if (current.status !== "Stopped") {
        await write(namespace, () => client.stopNotebooks(namespace, [id]));
        await waitForStatus(listing, ref, "Stopped", waitOptions(news));
      }
      const spec = wireBody({ ...news, namespace }).replica_specs;
      await write(namespace, () => client.startNotebooks(namespace, { uuids: [id], sku_id: spec.specs!, custom_spec: spec }));
      current = (await listing.locate(namespace, id, ref.name)) ?? current;
    }
    // Only a change of the desired state (or a resize) moves the notebook: an
    // unrelated update must not restart a notebook the platform stopped on schedule.
    if (changed.has("desiredState") || changed.has("replicaSpecs")) current = await settle(p, news, current, undefined);
    return { outs: outputs(news, current) };
  } catch (error) {
    throw partlyCreated(error, id, { ...outputs(news, current), __provider: news.__provider });
  }
}

export async function remove(id: string, props: NotebookOutputs): Promise<void> {
  const { client, listing, write } = platform();
  const namespace = String(props.namespace);
  const ref = { namespace, uuid: id, name: nameOf(props) };
  const current = await listing.locate(namespace, id, ref.name);
  // Gone already: neither the list nor a direct lookup shows it.
  if (!current) return;
  // A delete step answered "not found" may race the notebook's own removal: gone only if the lookups agree.
  const step = async (send: () => Promise<void>) => {
    try {
      await write(namespace, send);
      return "done" as const;
    } catch (error) {
      if (error instanceof AicpError && error.isNotFound && !(await listing.locate(namespace, id, ref.name))) return "gone" as const;
      throw error;
    }
  };
  if (current.status !== "Stopped" && (await step(() => client.stopNotebooks(namespace, [id]))) === "gone") return;
  if ((await step(() => client.setDeleteTime(namespace, id, new Date().toISOString().replace(/\.\d{3}Z$/, "Z")))) === "gone") return;
  await waitForRemoval(listing, ref, { timeoutMs: 1000 * Number(props.readyTimeoutSeconds ?? defaults.readyTimeoutSeconds) });
}

/** Notebooks listed with exactly this name that are not Failed. */
async function liveByName(client: AicpClient, namespace: string, name: string): Promise<wire.Notebook[]> {
  return (await client.findNotebooksByName(namespace, name)).filter((n) => n.status !== "Failed");
}

/** Watches the list for a notebook of this name, up to timeoutMs. */
async function waitForName(client: AicpClient, namespace: string, name: string, timeoutMs: number): Promise<wire.Notebook | undefined> {
  const deadline = Date.now() + timeoutMs;
  let interval = pollDefaults().initialIntervalMs;
  for (;;) {
    const [found] = await liveByName(client, namespace, name);
    if (found || Date.now() + interval > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(10_000, Math.round(interval * 1.5));
  }
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
  const base: Record<string, unknown> = { ...bodyOf(inputs), logicalName: inputs.logicalName, autoNamed: inputs.autoNamed, autoNameSuffix: inputs.autoNameSuffix };
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
    customImageSecret: isRecorded(inputs.customImageSecret)
      ? inputs.customImageSecret
      : recordImageSecret(resolveImageSecret(inputs.customImageSecret), digestKey()),
    uuid: notebook.uuid,
  } as unknown as NotebookOutputs;
  if (fromRefresh && (notebook.status === "Stopped" || notebook.status === "Running")) {
    merged.desiredState = notebook.status;
  }
  return compact(merged);
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
