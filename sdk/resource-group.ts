import * as pulumi from "@pulumi/pulumi";
import { resourceGroupKind, type GroupProgram } from "../client/wire/resource-group";
import { autoNameSuffix, ForwardedResource, ownerMark, seedOutputs } from "./forward";
import { secretPathsOf } from "./secret-paths";

/** A kind of workload that may use a resource group. */
export type PodType = "infer" | "instance" | "job";

/** Arguments of {@link ResourceGroup}. */
export interface ResourceGroupArgs {
  /**
   * Name of the group. Default: the resource name plus a suffix: 7 characters
   * derived from this stack's random id, the resource name and its parent,
   * after this stack's token where the random id is `s2-` and 32 hex, kept
   * across updates. A name you set must not be held by a group this resource did
   * not create. Changing it updates the group in place.
   */
  name?: pulumi.Input<string>;
  /** Free text, at most 977 characters (the platform keeps 1024; the provider appends its ownership mark). Default: empty. Updates in place. */
  description?: pulumi.Input<string>;
  /** Resource specification (product catalogue sku id) the group offers. Changing it replaces the group. */
  skuId: pulumi.Input<string>;
  /**
   * Workloads allowed to use the group: `infer` (inference services), `instance`
   * (notebooks), `job` (distributed training). At least one, no duplicates. Updates in place.
   */
  podTypes: pulumi.Input<pulumi.Input<PodType>[]>;
  /** Whether custom specifications are allowed. Default: false. Updates in place. */
  customizeEnable?: pulumi.Input<boolean>;
  /**
   * Takes over an existing group by its `rgId` instead of creating one.
   * Preview warns what the take-over will change to match the program; `up`
   * changes it in place (name, description, pod types, customize flag) and
   * writes this resource's mark into its description. A different `skuId`,
   * or a group made by another Pulumi resource, is refused with nothing
   * changed. Read only when the resource is created; keep it in the program.
   */
  adoptId?: pulumi.Input<string>;
}

// The arguments are the kind's fields and adoptId: a field described in client/wire/resource-group.ts and not declared here,
// or the other way round, does not compile.
const argsAreTheKindsFields: [keyof ResourceGroupArgs] extends [keyof GroupProgram | "adoptId"]
  ? [keyof GroupProgram | "adoptId"] extends [keyof ResourceGroupArgs]
    ? true
    : never
  : never = true;
void argsAreTheKindsFields;

// Every output, inputs included (an input the user omits must still read back), from the kind's one description.
const outputNames = resourceGroupKind.outputs;

/**
 * A resource group on the AICP platform: a set of resources offered to
 * inference services, notebooks and training jobs. The resource id is the
 * group's `rgId`.
 *
 * @example
 * const group = new aicp.ResourceGroup("training", {
 *   skuId: "sku-gpu-a100",
 *   podTypes: ["instance", "job"],
 *   description: "GPUs for the ML team",
 * });
 * export const groupId = group.rgId;
 */
export class ResourceGroup extends ForwardedResource {
  /** The group id assigned by the platform (also the resource id). */
  declare readonly rgId: pulumi.Output<string>;
  /** Name of the group as the platform holds it. */
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly skuId: pulumi.Output<string>;
  /** Pod types as the platform returned them. */
  declare readonly podTypes: pulumi.Output<PodType[]>;
  declare readonly customizeEnable: pulumi.Output<boolean>;
  /** Platform state, e.g. `active`. */
  declare readonly status: pulumi.Output<string | undefined>;
  /** Reason for the last state change, when the platform gives one. */
  declare readonly reason: pulumi.Output<string | undefined>;
  declare readonly resourceType: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string | undefined>;
  declare readonly updatedAt: pulumi.Output<string | undefined>;
  declare readonly userId: pulumi.Output<string | undefined>;
  declare readonly rootUserId: pulumi.Output<string | undefined>;

  /**
   * Reads an existing group into the program by its `rgId`, without managing
   * it. Fails, naming the id, when the platform holds no such group. To
   * manage an existing group, use `adoptId`.
   *
   * @example
   * const shared = aicp.ResourceGroup.get("shared", "rg-0123456789ab");
   * export const sharedSku = shared.skuId;
   */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): ResourceGroup {
    return new ResourceGroup(name, {} as ResourceGroupArgs, { ...opts, id });
  }

  /** A new group, or with `opts.id` (what {@link ResourceGroup.get} does) one read by its id. */
  constructor(name: string, args: ResourceGroupArgs, opts?: pulumi.CustomResourceOptions) {
    if (opts?.id !== undefined) {
      super("ResourceGroup", name, { ...seedOutputs(outputNames), readById: true }, opts);
      return;
    }
    super(
      "ResourceGroup",
      name,
      {
        ...seedOutputs(outputNames),
        ...args,
        logicalName: name,
        autoNameSuffix: autoNameSuffix("ResourceGroup", name, opts?.parent),
        ownerMark: ownerMark("ResourceGroup", name, opts?.parent),
        secretInputs: secretPathsOf(args),
      },
      opts,
    );
  }
}
