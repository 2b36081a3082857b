/**
 * The data-source functions as the plugin serves them (Invoke), by token: the
 * registry's functions (functions/index.ts), run with the client and settings
 * of the provider instance the call names rather than a program's stack
 * config, each with what the schema declares of it (plugin/schema-build.ts).
 * test/unit/declarations.test.ts compares the arguments with the TypeScript
 * package's declared ones.
 */
import type { AicpClient } from "../client/client";
import { createClient, requireUserId, type Settings } from "../client/config";
import { functionRegistry, type FunctionContext, type FunctionName } from "../functions";
import { currentSettings } from "../provider/context";
import { warn } from "../provider/engine-log";

export type { FunctionDeclaration, FunctionName } from "../functions";

let cached: { settings: Settings; client: AicpClient } | undefined;

/**
 * A client of the configured provider instance's settings, for the functions
 * only: the lifecycles' client learns the platform's zone from the state it
 * reads, and a function's result must not depend on what the provider did
 * before it in the same process. Rebuilt when the settings change.
 */
function functionClient(): AicpClient {
  const settings = currentSettings();
  if (!cached || JSON.stringify(cached.settings) !== JSON.stringify(settings))
    cached = { settings, client: createClient(settings, { front: "plugin", onQuota: (notice) => void warn(notice) }) };
  return cached.client;
}

/** Where a function runs in the plugin: the configured provider instance's settings; the client is built when first read. */
function pluginContext(): FunctionContext {
  return {
    get client() {
      return functionClient();
    },
    defaultNamespace: () => requireUserId(currentSettings()).toLowerCase(),
  };
}

/** Each function by its name in the schema (`aicp:index:<name>`): how the plugin calls it, its results kept secret, its declaration. */
export const functions = Object.fromEntries(
  Object.entries(functionRegistry).map(([name, fn]) => [
    name,
    {
      call: (args: never) => (fn.run as (context: FunctionContext, args: never) => Promise<object>)(pluginContext(), args),
      secretResults: fn.secretResults,
      declaration: fn.declaration,
    },
  ]),
) as Record<
  FunctionName,
  { call: (args: never) => Promise<object>; secretResults: readonly string[]; declaration: (typeof functionRegistry)[FunctionName]["declaration"] }
>;
