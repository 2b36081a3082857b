import type * as pulumi from "@pulumi/pulumi";
import { functionRegistry } from "../../functions";
import type { GetTrainingPodsArgs, GetTrainingPodsResult } from "../../functions/types";
import { outputForm, promiseForm } from "./program-client";

export type { GetTrainingPodsArgs, GetTrainingPodsResult } from "../../functions/types";

/**
 * Reads the pods of a training job that has not terminated. Containers' env
 * values are left out (they often hold tokens, and a function's result is not
 * secret); their names stay.
 *
 * @example
 * const { pods } = await aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "resnet-50" });
 */
export function getTrainingPods(args: GetTrainingPodsArgs, opts?: pulumi.InvokeOptions): Promise<GetTrainingPodsResult> {
  return promiseForm(functionRegistry.getTrainingPods)(args, opts);
}

/** {@link getTrainingPods} with arguments that may be Outputs. */
export const getTrainingPodsOutput = outputForm(getTrainingPods);
