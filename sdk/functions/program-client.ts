/**
 * The client the data-source functions use inside the Pulumi program, built
 * from the stack's `aicp:*` configuration (read raw, so a secret key causes no
 * warning and is never printed) with the same environment fallbacks as the
 * provider.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AicpClient } from "../../client/client";
import { AicpError, asOneLine } from "../../client/errors";
import { createClient, requireUserId, resolveSettings, type Settings } from "../../client/config";
import { rememberMarkedSecrets } from "../../provider/secrets";
import { secretPathsOf } from "../secret-paths";
import type { DataSourceFunction, FunctionContext } from "../../functions";
import type { ArgValues, DeclaredFields, ResultValues } from "../../functions/function";

let cached: { settings: Settings; client: AicpClient } | undefined;
let settingsSource: (() => Settings) | undefined;

/** Settings to run the functions with instead of the stack's configuration: for tests that give their own. */
export function takeSettingsFrom(source: () => Settings): void {
  settingsSource = source;
}

/** The provider settings as the program sees them (stack config, then environment). */
export function programSettings(): Settings {
  return settingsSource ? settingsSource() : resolveSettings((key) => pulumi.runtime.getConfig(key));
}

/** One client per process, rebuilt only when the settings change. */
export function programClient(): AicpClient {
  const settings = programSettings();
  if (!cached || JSON.stringify(cached.settings) !== JSON.stringify(settings)) {
    cached = { settings, client: createClient(settings, { front: "program", onQuota: (notice) => void pulumi.log.warn(notice) }) };
  }
  return cached.client;
}

/** The namespace given, else the configured user id in lower case. */
export function namespaceOr(namespace: string | undefined): string {
  return namespace ?? requireUserId(programSettings()).toLowerCase();
}

/** Where a function runs in the program (functions/function.ts): the program's client and its configured user. */
export function programContext(): FunctionContext {
  // The client is built when a function first reads the platform: a bad argument is reported before a missing setting.
  return {
    get client() {
      return programClient();
    },
    defaultNamespace: () => namespaceOr(undefined),
  };
}

/** The Promise form of a registered function, run in the program, its errors reported as a resource's. */
export function promiseForm<A extends DeclaredFields, R extends DeclaredFields>(fn: DataSourceFunction<A, R>) {
  return (args: ArgValues<A>, _opts?: pulumi.InvokeOptions): Promise<ResultValues<R>> => reportedInProgram(() => fn.run(programContext(), args));
}

/** A function's arguments as its Output form takes them: each may be an Output. */
type OutputArgs<A> = pulumi.Input<A> | { [K in keyof A]: pulumi.Input<A[K]> };

/**
 * Builds the Output form of a function from its Promise form, called the same
 * way: its arguments may be left out when none is required.
 */
export function outputForm<A, R>(fn: (args: A, opts?: pulumi.InvokeOptions) => Promise<R>) {
  return (
    ...[args, opts]: object extends A ? [args?: OutputArgs<A>, opts?: pulumi.InvokeOptions] : [args: OutputArgs<A>, opts?: pulumi.InvokeOptions]
  ): pulumi.Output<R> => {
    const given = pulumi.output((args ?? {}) as pulumi.Input<A>);
    // Arguments the program marked secret are left out of the messages of a failed call, as a resource's are (provider/secrets.ts);
    // by path, so that an argument beside a marked one stays readable.
    const marked = pulumi.Output.isInstance(args)
      ? pulumi.output(pulumi.isSecret(args as pulumi.Output<unknown>).then((secret) => (secret ? [""] : undefined)))
      : secretPathsOf((args ?? {}) as object);
    return pulumi.all([given, marked]).apply(([resolved, secretInputs]) => {
      rememberMarkedSecrets({ ...(resolved as object), secretInputs });
      return fn(resolved as A, opts);
    }) as pulumi.Output<R>;
  };
}

/**
 * Runs a function's body; an AicpError it throws leaves marked as Pulumi's
 * RunError marks its own (the program runtime then prints its message alone,
 * once, without a stack trace) and reads as one line that starts with its
 * code, so a failed function is reported like a failed resource. The error
 * stays an AicpError with its fields, for programs that catch it.
 */
export async function reportedInProgram<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AicpError)) throw error;
    asOneLine(error);
    Object.defineProperty(error, "__pulumiRunError", { value: true });
    throw error;
  }
}
