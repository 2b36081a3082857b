/**
 * What the dynamic-provider process loads, by package name
 * (`require("pulumi-aicp/provider")`): one lifecycle per resource kind, and
 * `configure`, which receives the stack's `aicp:*` configuration.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkConfiguredSettings, configureFrom } from "./context";
import { AicpError, asOneLine } from "../client/errors";
import { kindDescriptions, type DescribedKind } from "../client/wire";
import { listenForCancel } from "./cancellation";
import { sawRecorded, seesEveryRecord, settledByRecord, settledOnReturn } from "./create-journal";
import { engineFailure } from "./check-failures";
import { markedTopKeys, rememberMarkedSecrets } from "./secrets";
import * as notebook from "./notebook";
import * as resourceGroup from "./resource-group";
import * as stackMark from "./stack-mark";
import type { ResourceKind } from "./kinds";
import type { DiffWithProperties } from "./diff-result";

/**
 * The operations of one resource kind, in the shape of
 * pulumi.dynamic.ResourceProvider, typed by the kind's inputs and the
 * outputs the state records of it.
 */
export interface Lifecycle<Inputs, Outputs> {
  check(olds: Partial<Inputs>, news: Inputs): Promise<pulumi.dynamic.CheckResult<Inputs>>;
  diff(id: string, olds: Outputs, news: Inputs): Promise<DiffWithProperties>;
  create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult<Outputs>>;
  read(id: string, props: Outputs): Promise<pulumi.dynamic.ReadResult<Outputs>>;
  update(id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult<Outputs>>;
  delete(id: string, props: Outputs): Promise<void>;
}

/** One lifecycle per kind of kinds.ts: a kind missing here, or one the SDK does not name, does not compile. */
export const lifecycles = {
  ResourceGroup: { ...resourceGroup, delete: resourceGroup.remove } satisfies Lifecycle<resourceGroup.ResourceGroupInputs, resourceGroup.ResourceGroupOutputs>,
  Notebook: { ...notebook, delete: notebook.remove } satisfies Lifecycle<notebook.NotebookInputs, notebook.NotebookOutputs>,
  StackMark: { ...stackMark, delete: stackMark.remove } satisfies Lifecycle<stackMark.StackMarkProps, stackMark.StackMarkProps>,
} satisfies { [K in ResourceKind]: unknown };

/**
 * A lifecycle as the engine calls it: with the values the engine decoded,
 * which nothing typed yet (check validates them). The one place the kinds'
 * types are erased.
 */
export type EngineLifecycle = { [Operation in keyof Lifecycle<unknown, unknown>]: (...args: never[]) => ReturnType<Lifecycle<unknown, unknown>[Operation]> };

export type { ResourceKind };

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  listenForCancel();
  // A configuration problem is kept (context.ts) and reported by the operation that needs the settings, as its error or a
  // check's failure: thrown here, the dynamic provider would print it on its stderr and then again as the resource's error.
  try {
    configureFrom((key) => req.config.get(key));
  } catch (error) {
    if (!(error instanceof AicpError)) oneLine(error);
  }
}

/**
 * The provider object of one resource kind, as the `__provider` module text of
 * each resource asks for it (see sdk/forward.ts).
 */
export function forKind(kind: string): EngineLifecycle & { configure: typeof configure } {
  seesEveryRecord();
  const reported = reportedOperations(kind);
  const hidden = kind in kindDescriptions ? kindDescriptions[kind as DescribedKind].secretOutputs : [];
  // Each failure with its path and value in the reason, as the plugin sends them: the engine's own rendering loses both (check-failures.ts).
  const check: EngineLifecycle["check"] = async (...args) => {
    const news = args[1];
    // A check that throws is printed twice, its message on the dynamic provider's stderr and then as the resource's error; a failure once.
    const result = await reported.check(...args).catch((error: unknown) => {
      if (!(error instanceof AicpError)) throw error;
      return { inputs: news, failures: [{ property: "", reason: error.message }] };
    });
    // A value under a path the program marked is never shown, however short (secrets.ts markedTopKeys).
    const marked = markedTopKeys(news);
    const hiddenHere = [...hidden, ...marked];
    return result.failures ? { ...result, failures: result.failures.map((f) => engineFailure(f, news, hiddenHere, marked)) } : result;
  };
  return { ...reported, check, configure };
}

/** The operations of one kind, each error leaving as one line (the plugin's service calls these). */
export function reportedOperations(kind: string): EngineLifecycle {
  const operations = kind in kindDescriptions ? behindSettingsCheck(lifecycle(kind)) : lifecycle(kind);
  return eachOperation(operations, (operation) => (...args) => {
    // Before anything can fail: what the program marked secret is cut out of every message (secrets.ts).
    args.forEach(rememberMarkedSecrets);
    return operation(...args).catch(oneLine);
  });
}

/** A wrapper of one operation that keeps its arguments and result. */
type OperationWrapper = <Args extends unknown[], Result>(operation: (...args: Args) => Promise<Result>) => (...args: Args) => Promise<Result>;

/** Each operation of a lifecycle passed through `wrap`. */
function eachOperation(operations: EngineLifecycle, wrap: OperationWrapper): EngineLifecycle {
  return {
    check: wrap(operations.check),
    diff: wrap(operations.diff),
    create: wrap(operations.create),
    read: wrap(operations.read),
    update: wrap(operations.update),
    delete: wrap(operations.delete),
  };
}

/**
 * The operations of a kind that reaches the platform, behind the check of the
 * settings (settings-check.ts), made once per process: check makes it after
 * the inputs are found valid (bad input is reported before any request), and
 * in place of its own error when a lookup of its failed (a refused key says
 * so in the settings' words); every other operation makes it first.
 */
function behindSettingsCheck(operations: EngineLifecycle): EngineLifecycle {
  const gated = eachOperation(operations, (operation) => async (...args) => {
    await checkConfiguredSettings();
    return operation(...args);
  });
  const check: EngineLifecycle["check"] = async (...args) => {
    let result: Awaited<ReturnType<EngineLifecycle["check"]>>;
    try {
      result = await operations.check(...args);
    } catch (error) {
      await checkConfiguredSettings();
      throw error;
    }
    if (!result.failures || result.failures.length === 0) await checkConfiguredSettings();
    return result;
  };
  return { ...gated, check };
}

/**
 * Errors leave the provider as one line with their code (client/errors.ts
 * asOneLine): the engine prints the message, and for a failed read the
 * dynamic provider prints the stack too.
 */
function oneLine(error: unknown): never {
  throw error instanceof AicpError ? asOneLine(error) : error;
}

/**
 * A kind's lifecycle as the engine calls it, on either front. Its create is where the engine receives
 * the answer: the create journal's entry is settled there when the call returns an id
 * (create-journal.ts settledOnReturn, docs/identity.md); a kind's own create, called directly, is a
 * Create whose answer has not reached the engine yet.
 */
export function lifecycle(kind: string): EngineLifecycle {
  const found = (lifecycles as Record<string, EngineLifecycle>)[kind];
  if (!found)
    throw new AicpError(
      "AICP_CONFIG",
      `pulumi-aicp/provider has no resource kind '${kind}' (the state names a kind of another pulumi-aicp version); install that version in this program's ` +
        `dependencies`,
    );
  const create: EngineLifecycle["create"] = (...args) =>
    settledOnReturn((args[0] as { ownerMark?: unknown } | undefined)?.ownerMark, () => found.create(...args));
  // Every other call carries what the state records, which may settle an entry still held (create-journal.ts settledByRecord).
  const recorded = <Operation extends "diff" | "read" | "update" | "delete">(operation: Operation): EngineLifecycle[Operation] =>
    ((id: unknown, props: { ownerMark?: unknown } | undefined, ...rest: unknown[]) => {
      if (typeof id === "string") settledByRecord(props?.ownerMark, id);
      return (found[operation] as (...args: unknown[]) => unknown)(id, props, ...rest);
    }) as EngineLifecycle[Operation];
  // A check with old inputs shows the state recording an object of the resource (create-journal.ts sawRecorded).
  const check: EngineLifecycle["check"] = (olds, news) => {
    if (olds && Object.keys(olds).length > 0) sawRecorded((olds as { ownerMark?: unknown }).ownerMark);
    return found.check(olds, news);
  };
  return { ...found, check, create, diff: recorded("diff"), read: recorded("read"), update: recorded("update"), delete: recorded("delete") };
}
