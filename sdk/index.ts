/**
 * Pulumi resources and functions for the AICP (CoresHub) AI computing platform.
 *
 * @example
 * import * as aicp from "pulumi-aicp";
 * const group = new aicp.ResourceGroup("team", { skuId: "sku-...", podTypes: ["instance"] });
 */
export { ResourceGroup, type ResourceGroupArgs, type PodType } from "./resource-group";
