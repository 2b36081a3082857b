/** What a lifecycle's diff answers: the dynamic provider's result, and the properties that differ (the provider plugin's detailed diff). */
import type * as pulumi from "@pulumi/pulumi";

export type DiffWithProperties = pulumi.dynamic.DiffResult & {
  /** Every property that differs, those that replace included. */
  diffs?: string[];
};
