/**
 * Lifecycle of the stack mark (sdk/forward.ts): the stack's identity
 * (identity.ts stackIdentityOf), made by its first check where the state
 * holds none, pinned by `aicp:stackMark`, and kept in the state; every later
 * check keeps the recorded one. Nothing is sent to the platform.
 */
import type * as pulumi from "@pulumi/pulumi";
import { currentSettings } from "./context";
import { stackIdentityOf } from "./identity";

export interface StackMarkProps {
  value?: string;
}

export async function check(olds: StackMarkProps, _news: StackMarkProps): Promise<pulumi.dynamic.CheckResult<StackMarkProps>> {
  const recorded = typeof olds?.value === "string" && olds.value !== "" ? olds.value : undefined;
  const identity = stackIdentityOf(recorded, currentSettings().stackMark);
  if ("problem" in identity) return { inputs: { value: recorded }, failures: [{ property: "value", reason: identity.problem }] };
  return { inputs: { value: identity.value } };
}

export async function diff(): Promise<pulumi.dynamic.DiffResult & { diffs?: string[] }> {
  return { changes: false };
}

export async function create(inputs: StackMarkProps): Promise<pulumi.dynamic.CreateResult<StackMarkProps>> {
  return { id: inputs.value!, outs: { value: inputs.value } };
}

export async function read(id: string, props: StackMarkProps): Promise<pulumi.dynamic.ReadResult<StackMarkProps>> {
  return { id, props: { value: props?.value ?? id } };
}

export async function update(id: string, olds: StackMarkProps): Promise<pulumi.dynamic.UpdateResult<StackMarkProps>> {
  return { outs: { value: olds.value ?? id } };
}

export async function remove(): Promise<void> {}
