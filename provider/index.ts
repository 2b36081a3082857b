/**
 * What the dynamic-provider process loads, by package name
 * (`require("pulumi-aicp/provider")`): one lifecycle per resource kind, and
 * `configure`, which receives the stack's `aicp:*` configuration.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureFrom } from "./context";
import { AicpError, asOneLine } from "./client/errors";
import { listenForCancel } from "./cancellation";
import * as notebook from "./notebook";
import * as resourceGroup from "./resource-group";
import * as stackMark from "./stack-mark";

/** The operations of one resource kind, in the shape of pulumi.dynamic.ResourceProvider. */
export interface Lifecycle {
  check(olds: any, news: any): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: any, news: any): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: any): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: any): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: any, news: any): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: any): Promise<void>;
}

/** Resource kinds by the name the SDK's forwarding provider carries. */
export const lifecycles = {
  ResourceGroup: { ...resourceGroup, delete: resourceGroup.remove },
  Notebook: { ...notebook, delete: notebook.remove },
  StackMark: { ...stackMark, delete: stackMark.remove },
} satisfies Record<string, Lifecycle>;

export type ResourceKind = keyof typeof lifecycles;

/** Receives the stack configuration (secrets decrypted by the engine) once per process. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  listenForCancel();
  // A configuration problem is one line too: the dynamic provider would print its stack trace.
  try {
    configureFrom((key) => req.config.get(key));
  } catch (error) {
    oneLine(error);
  }
}

/**
 * The provider object of one resource kind, as the `__provider` module text of
 * each resource asks for it (see sdk/forward.ts).
 */
export function forKind(kind: string): Lifecycle & { configure: typeof configure } {
  const operations = lifecycle(kind);
  const reported = Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => [name, (...args: unknown[]) => (operation as (...a: unknown[]) => Promise<unknown>)(...args).catch(oneLine)]),
  ) as unknown as Lifecycle;
  return { ...reported, configure };
}

/**
 * Errors leave the provider as one line with their code (client/errors.ts
 * asOneLine): the engine prints the message, and for a failed read the
 * dynamic provider prints the stack too.
 */
function oneLine(error: unknown): never {
  throw error instanceof AicpError ? asOneLine(error) : error;
}

export function lifecycle(kind: string): Lifecycle {
  const found = (lifecycles as Record<string, Lifecycle>)[kind];
  if (!found) throw new Error(`pulumi-aicp/provider has no resource kind '${kind}'; upgrade pulumi-aicp in this program's dependencies`);
  return found;
}
