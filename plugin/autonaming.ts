/**
 * The stack's `pulumi:autonaming` setting as the engine hands it to one
 * resource's Check (CheckRequest.autonaming, sent because Configure says the
 * plugin supports it): a proposed name and a mode. Propose: the provider
 * keeps its own auto-name, as it may. Enforce (`verbatim`, or a pattern with
 * `enforce`): the proposed name is the new object's name, recorded as its
 * auto-name, so later runs keep it (a pattern with a random part proposes
 * another each run). Disable: a resource must set `name`.
 *
 * It also tells the provider how the engine replaces the resource: the engine
 * deletes first on every replacement, `up --replace` included, when the
 * setting's name has no random part (its step_generator.go: "If autonaming
 * settings had no randomness in the name, we must delete before creating a
 * replacement"). The provider sees only the name, so it knows this where the
 * name cannot hold a random part: the mode is disable, or the proposed name
 * is the resource's logical name (`verbatim`, or the pattern `${name}`).
 * Not proven: a pattern whose random part renders empty (`${name}${hex(0)}`)
 * proposes the logical name too, and the engine then creates first;
 * docs/resources.md names the pattern `${name}` itself.
 * Then no create of the resource is made beside the object the state
 * records, as on the TypeScript front (docs/identity.md, "Decisions").
 */
import type * as proto from "@pulumi/pulumi/proto/provider_pb";

/** The three modes, as the engine numbers them (CheckRequest.AutonamingOptions.Mode). */
const modes = ["propose", "enforce", "disable"] as const;

export interface Autonaming {
  readonly proposedName: string;
  readonly mode: (typeof modes)[number];
}

/** The setting the engine sent with this Check, if any. */
export function autonamingOf(request: proto.CheckRequest): Autonaming | undefined {
  const options = request.getAutonaming();
  if (options === undefined) return undefined;
  return { proposedName: options.getProposedName(), mode: modes[options.getMode()] ?? "propose" };
}

/**
 * The name the setting gives a resource whose program set none: the enforced name, or a refusal where
 * auto-names are disabled. A resource the state records with an auto-name keeps it (provider/inputs.ts
 * resolveName), as other providers keep theirs: the setting names new objects, a replacement's included.
 */
export function namedBy(
  autonaming: Autonaming | undefined,
  news: { name?: unknown },
  olds: { autoNamed?: unknown },
): { name: string } | { problem: string } | undefined {
  if (autonaming === undefined || (typeof news.name === "string" && news.name !== "") || olds.autoNamed === true) return undefined;
  if (autonaming.mode === "enforce") return { name: autonaming.proposedName };
  if (autonaming.mode === "disable") return { problem: "name is required: the stack's pulumi:autonaming disables auto-names for this provider" };
  return undefined;
}

/** Whether the engine deletes first on every replacement of the resource named `logicalName` (see the module's comment). */
export function engineDeletesFirst(autonaming: Autonaming | undefined, logicalName: string): boolean {
  return autonaming !== undefined && (autonaming.mode === "disable" || autonaming.proposedName === logicalName);
}
