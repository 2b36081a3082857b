/**
 * How our resources reach the dynamic-provider process.
 *
 * The engine's nodejs dynamic provider evaluates the `__provider` property of a
 * resource as module text and calls its `handler()` to get the provider object.
 * pulumi.dynamic.Resource fills it by closure-serializing a provider object;
 * for a forwarding object with seven methods that text is about 2.2 KB per
 * resource. We write the module text ourselves instead: one line that loads the
 * implementation by package name in the provider process. It captures nothing
 * (no client, schema, configuration or secret), is ~80 bytes, and never changes
 * when the implementation does, so upgrades cause no diff.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** Resource kinds served by `pulumi-aicp/provider`. */
export type ResourceKind = "Notebook" | "ResourceGroup" | "StackMark";

/** The `__provider` text of a resource kind. */
export function providerModule(kind: ResourceKind): string {
  return `exports.handler = () => require("pulumi-aicp/provider").forKind(${JSON.stringify(kind)});`;
}

/**
 * Base of our resources: a custom resource of the engine's nodejs dynamic
 * provider, with the type token `pulumi-nodejs:dynamic/aicp:<Kind>` that
 * pulumi.dynamic.Resource would give it.
 */
export abstract class ForwardedResource extends pulumi.CustomResource {
  protected constructor(kind: ResourceKind, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super(`pulumi-nodejs:dynamic/aicp:${kind}`, name, { ...props, __provider: providerModule(kind) }, opts);
  }
}

/**
 * The suffix of an auto-name: 7 hex characters derived from this stack's
 * random id (see StackMark), project, stack, kind, resource name and the
 * parent's URN, so the name is the same on every run of this stack (see
 * provider/inputs.ts resolveName) and differs between stacks, even two of one
 * name in two backends, and between parents.
 */
export function autoNameSuffix(kind: ResourceKind, name: string, parent?: pulumi.Resource): pulumi.Output<string> {
  return pulumi
    .all([stackMark().value, parent === undefined ? "" : parent.urn])
    .apply(([stackId, parentUrn]) => hex(`${pulumi.getProject()}/${pulumi.getStack()}/${kind}/${name}\n${stackId}\n${parentUrn}`, 7));
}

/**
 * The mark of one resource (see provider/ownership.ts): 32 hex characters from
 * this stack's random id (which no other stack has, in any backend) and the
 * resource's kind, name and parent. The same on every run, so a create
 * interrupted by a crash finds its object on the next run.
 */
export function ownerMark(kind: ResourceKind, name: string, parent?: pulumi.Resource): pulumi.Output<string> {
  return pulumi
    .all([stackMark().value, parent === undefined ? "" : parent.urn])
    .apply(([stackId, parentUrn]) => hex(`${stackId}\n${kind}\n${name}\n${parentUrn}`, 32));
}

function hex(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/**
 * One per stack: a random id created on the stack's first `up` and kept in its
 * state. It holds nothing secret and touches nothing on the platform.
 */
class StackMark extends ForwardedResource {
  /** The stack's random id. */
  declare readonly value: pulumi.Output<string>;
  constructor() {
    super("StackMark", "aicp-stack-mark", { value: undefined }, {});
  }
}

let theStackMark: StackMark | undefined;

function stackMark(): StackMark {
  theStackMark ??= new StackMark();
  return theStackMark;
}

/** Output properties must be present (as undefined) in the props, or they read back undefined. */
export function seedOutputs<K extends string>(names: readonly K[]): Record<K, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined])) as Record<K, undefined>;
}
