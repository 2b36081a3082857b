/**
 * Lifecycle of the stack mark (sdk/forward.ts): a random id made once, when
 * the stack first creates it, and kept in the state; every later check keeps
 * the recorded one. Nothing is sent to the platform.
 */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";

export interface StackMarkProps {
  value?: string;
}

export async function check(olds: StackMarkProps, _news: StackMarkProps): Promise<pulumi.dynamic.CheckResult<StackMarkProps>> {
  return { inputs: { value: typeof olds?.value === "string" && olds.value !== "" ? olds.value : randomBytes(16).toString("hex") } };
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
