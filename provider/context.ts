/**
 * Per-process state of the dynamic provider: the settings `configure()`
 * received and the one client built from them (reused across resources, so
 * connections are kept alive between operations).
 */
import type { AicpClient } from "../client/client";
import { createClient, resolveSettings, type ConfigSource, type Settings } from "../client/config";
import { warn } from "./engine-log";
import { NotebookListing, type NotebookPlatform } from "./notebook/listing";
import { pollIntervals } from "./poll";
import { checkSettingsWithPlatform } from "./settings-check";

let settings: Settings | undefined;
let configureError: unknown;
let client: AicpClient | undefined;
let shared: { client: AicpClient; listing: NotebookListing } | undefined;
let settingsCheck: Promise<"checked" | "undetermined"> | undefined;
/** When a walk must have started to answer for a notebook, kept across clients (notebook/listing.ts). */
const writeFloors = new Map<string, number>();
let checkable = true;

/**
 * Called by the engine once per provider process with the stack's
 * configuration; `checkable: false` when a setting is not known yet (a
 * preview), so the settings are not checked against the platform.
 */
export function configureFrom(source: ConfigSource, options: { checkable?: boolean } = {}): void {
  try {
    const next = resolveSettings(source);
    checkable = options.checkable ?? true;
    // The engine configures once per resource kind with the same stack config:
    // keep the client, and what it learned of the platform (client/dialect.ts).
    if (JSON.stringify(next) !== JSON.stringify(settings)) replaceClient();
    settings = next;
    configureError = undefined;
  } catch (error) {
    // The engine caches the provider even when configure fails; keep the error
    // so every later call reports it instead of running on other settings.
    settings = undefined;
    replaceClient();
    configureError = error;
    throw error;
  }
}

/** Drops the client built on other settings, closing its connections once the requests in flight end. */
function replaceClient(): void {
  const old = client;
  client = undefined;
  shared = undefined;
  settingsCheck = undefined;
  // Nothing waits for it: a close that fails leaves only idle sockets, which the process exit ends.
  old?.close().catch(() => undefined);
}

/**
 * The settings checked against the platform (settings-check.ts): one read per
 * process and settings, none when aicp:skipCredentialsValidation is set or a
 * setting is not known yet. A refusal of the settings is kept, as configure's
 * own, for every later call to report; an answer that says nothing of them
 * lets the operation go on.
 */
export async function checkConfiguredSettings(): Promise<void> {
  const checked = currentSettings();
  if (checked.skipCredentialsValidation || !checkable) return;
  const pending = (settingsCheck ??= checkSettingsWithPlatform(checked, currentClient(), currentListing()));
  try {
    // An answer that said nothing of the settings (a busy platform) is asked again by a later operation.
    if ((await pending) === "undetermined" && settingsCheck === pending) settingsCheck = undefined;
  } catch (error) {
    if (settings === checked) configureError = error;
    throw error;
  }
}

/** Whether the settings are all known (false in a preview where one is another resource's output): only then may a check read the platform. */
export function settingsCheckable(): boolean {
  return checkable;
}

export function currentSettings(): Settings {
  if (configureError) throw configureError;
  // Without configure() (older engines), environment variables still apply.
  settings ??= resolveSettings(() => undefined);
  return settings;
}

export function currentClient(): AicpClient {
  // The quota notice goes to the engine, which prints it once under Diagnostics.
  client ??= createClient(currentSettings(), { onQuota: (notice) => void warn(notice) });
  return client;
}

/** The platform's zone of bare date-times as learned so far, without building a client (check needs no credentials). */
export function learnedZone(): number | undefined {
  return client?.timeZone.offset;
}

/** The process's shared notebook listing (see notebook/listing.ts). */
export function currentListing(): NotebookListing {
  const forClient = currentClient();
  if (shared?.client !== forClient) shared = { client: forClient, listing: new NotebookListing(forClient, listingMaxAgeMs(), writeFloors) };
  return shared.listing;
}

/** The client, the shared listing, and a write step that records each write's end for the listing. */
export function notebookPlatform(): NotebookPlatform {
  const client = currentClient();
  const listing = currentListing();
  const write = async <T>(namespace: string, uuid: string | undefined, send: () => Promise<T>): Promise<T> => {
    let answer: T | undefined;
    try {
      answer = await send();
      return answer;
    } finally {
      // A write whose answer was lost may have been applied too. A create's answer names the notebook it made.
      const written = uuid ?? (answer as { uuid?: unknown } | undefined)?.uuid;
      if (typeof written === "string") listing.wrote(namespace, written);
    }
  };
  return { client, listing, write };
}

/**
 * How long before a wait's poll a walk may have started and still answer it: half a second, or
 * the poll interval when AICP_POLL_INTERVAL_MS makes it shorter (tests against
 * a fast emulator), so a wait sees each poll's answer fresh.
 */
function listingMaxAgeMs(): number {
  return Math.min(500, pollIntervals().initialIntervalMs);
}
