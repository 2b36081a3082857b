/**
 * Per-process state of the dynamic provider: the settings `configure()`
 * received and the one client built from them (reused across resources, so
 * connections are kept alive between operations).
 */
import type { AicpClient } from "./client/client";
import { createClient, resolveSettings, type ConfigSource, type Settings } from "./config";

let settings: Settings | undefined;
let client: AicpClient | undefined;

/** Called by the engine once per provider process with the stack's configuration. */
export function configureFrom(source: ConfigSource): void {
  settings = resolveSettings(source);
  client = undefined;
}

export function currentSettings(): Settings {
  // Without configure() (older engines), environment variables still apply.
  settings ??= resolveSettings(() => undefined);
  return settings;
}

export function currentClient(): AicpClient {
  client ??= createClient(currentSettings());
  return client;
}
