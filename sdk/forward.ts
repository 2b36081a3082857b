/**
 * The provider object handed to pulumi.dynamic.Resource. Pulumi serializes it
 * into the state of every resource and runs that text in the provider process,
 * so it holds only the resource kind and forwards each call to the real
 * implementation, loaded there by package name. Nothing else is captured: no
 * client, no schema, no configuration, no secret; and the serialized text does
 * not change when the implementation does, so upgrades cause no diff.
 */
import type * as pulumi from "@pulumi/pulumi";

export function forwardingProvider(kind: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("pulumi-aicp/provider").configure(req),
    check: (olds, news) => require("pulumi-aicp/provider").lifecycle(kind).check(olds, news),
    diff: (id, olds, news) => require("pulumi-aicp/provider").lifecycle(kind).diff(id, olds, news),
    create: (inputs) => require("pulumi-aicp/provider").lifecycle(kind).create(inputs),
    read: (id, props) => require("pulumi-aicp/provider").lifecycle(kind).read(id, props),
    update: (id, olds, news) => require("pulumi-aicp/provider").lifecycle(kind).update(id, olds, news),
    delete: (id, props) => require("pulumi-aicp/provider").lifecycle(kind).delete(id, props),
  };
}

/** Output properties must be present (as undefined) in the props, or they read back undefined. */
export function seedOutputs<K extends string>(names: readonly K[]): Record<K, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined])) as Record<K, undefined>;
}
