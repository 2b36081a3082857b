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
import * as pulumi from "@pulumi/pulumi";
import { autoNameSuffixOf, ownerMarkOf } from "../provider/identity";
import type { ResourceKind } from "../provider/kinds";

/** Resource kinds served by `pulumi-aicp/provider`. */
export type { ResourceKind } from "../provider/kinds";

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
    // Every replacement deletes first, also one forced by `--replace` (the engine then never asks the
    // provider): the new object keeps the old one's name and mark, and created beside it would adopt it.
    super(`pulumi-nodejs:dynamic/aicp:${kind}`, name, { ...props, __provider: providerModule(kind) }, { ...opts, deleteBeforeReplace: true });
  }
}

/**
 * The suffix of an auto-name: 7 hex characters derived from this stack's
 * random id, after the stack's token where that id has the form this provider makes now, (see StackMark), project, stack, kind, resource
 * name and its parents (provider/identity.ts), so the name is the same on
 * every run of this stack (see provider/inputs.ts resolveName) and differs
 * between stacks, even two of one name in two backends, and between parents.
 */
export function autoNameSuffix(kind: ResourceKind, name: string, parent?: pulumi.Resource): pulumi.Output<string> {
  const place = `${pulumi.getProject()}/${pulumi.getStack()}/${kind}/${name}\n${parentPath(parent)}`;
  return stackMark().value.apply((stackId) => autoNameSuffixOf(place, stackId));
}

/**
 * The mark of one resource (see provider/ownership.ts): 32 hex characters from
 * this stack's random id (which no other stack has, in any backend) and the
 * resource's kind, name and parents. The same on every run, so a create
 * interrupted by a crash finds its object on the next run.
 */
export function ownerMark(kind: ResourceKind, name: string, parent?: pulumi.Resource): pulumi.Output<string> {
  const place = `${kind}\n${name}\n${parentPath(parent)}`;
  return stackMark().value.apply((stackId) => ownerMarkOf(place, stackId));
}

/**
 * The chain of parents as `type::name` pairs, what a URN would say, read when
 * the resource is constructed. Not the parent's `urn` output: as an input it
 * would make the resource depend on every child of a component, its own
 * siblings included, and two siblings would wait for each other for ever.
 */
function parentPath(parent: pulumi.Resource | undefined): string {
  const chain: string[] = [];
  for (let r = parent as Internals | undefined; r !== undefined; r = r.__parentResource) {
    chain.unshift(`${r.__pulumiType ?? "?"}::${r.__name ?? "?"}`);
  }
  return chain.join("/");
}

/** Fields every @pulumi/pulumi Resource sets in its constructor (resource.ts), read here for parentPath. */
interface Internals {
  __pulumiType?: string;
  __name?: string;
  __parentResource?: Internals;
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

/** One StackMark per program run: an Automation API process runs several, each with its own stack resource. */
const stackMarks = new WeakMap<object, StackMark>();
const outsideAStack = {};

function stackMark(): StackMark {
  const run = pulumi.runtime.getStackResource() ?? outsideAStack;
  let mark = stackMarks.get(run);
  if (!mark) {
    mark = new StackMark();
    stackMarks.set(run, mark);
  }
  return mark;
}

/** Output properties must be present (as undefined) in the props, or they read back undefined. */
export function seedOutputs<K extends string>(names: readonly K[]): Record<K, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined])) as Record<K, undefined>;
}
