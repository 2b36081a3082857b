/**
 * What the TypeScript SDK adds to a resource's inputs (sdk/forward.ts), made
 * here for programs in every language: its logical name, the suffix of its
 * auto-name, and its ownership mark (provider/ownership.ts). Both derive from
 * the resource's URN (project, stack, parents' types and name) and the
 * stack's identity, kept in the provider instance's recorded inputs or pinned
 * by `aicp:stackMark` (server.ts checkConfig, provider/identity.ts
 * stackIdentityOf): the same on every run of a stack, so an interrupted
 * create finds its object again, and different in every other stack, even
 * one of the same name in another backend.
 */
import { autoNameSuffixOf, ownerMarkOf } from "../provider/identity";

/** The provider input that holds the random id. */
export const stackMarkKey = "stackMark";

/** The identity inputs of the resource `urn`; those recorded before (`olds`) are kept, so a renamed or moved resource keeps its name and mark. */
export function identityOf(urn: string, stackMark: string, olds: Record<string, unknown>): { logicalName: string; autoNameSuffix: string; ownerMark: string } {
  const kept = (key: string) => (typeof olds[key] === "string" && olds[key] !== "" ? (olds[key] as string) : undefined);
  return {
    logicalName: kept("logicalName") ?? urn.slice(urn.lastIndexOf("::") + 2),
    autoNameSuffix: kept("autoNameSuffix") ?? autoNameSuffixOf(urn, stackMark),
    ownerMark: kept("ownerMark") ?? ownerMarkOf(urn, stackMark),
  };
}
