/**
 * The resource kinds, named once for both sides of the dynamic-provider
 * boundary: the SDK registers each under `pulumi-nodejs:dynamic/aicp:<kind>`
 * and the provider serves it (index.ts `lifecycles`, which must hold exactly
 * these). No imports: the SDK's published declarations reference this file.
 */
export const resourceKinds = ["Notebook", "ResourceGroup", "StackMark"] as const;

/** One resource kind. */
export type ResourceKind = (typeof resourceKinds)[number];
