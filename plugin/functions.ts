/**
 * The data-source functions as the plugin serves them (Invoke), by token: the
 * registry's functions (functions/index.ts), run with the client and settings
 * of the provider instance the call names rather than a program's stack
 * config, each with what the schema declares of it (plugin/schema-build.ts).
 * test/unit/declarations.test.ts compares the arguments with the TypeScript
 * package's declared ones.
 */
import { requireUserId } from "../client/config";
import { functionRegistry, type FunctionContext, type FunctionName } from "../functions";
import { currentClient, currentSettings } from "../provider/context";

export type { FunctionDeclaration, FunctionName } from "../functions";

/** Where a function runs in the plugin: the configured provider instance's client and user. */
function pluginContext(): FunctionContext {
  return { client: currentClient(), defaultNamespace: () => requireUserId(currentSettings()).toLowerCase() };
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
