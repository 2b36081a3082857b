/**
 * Runs one of the pack's policies the way the engine does: a stack policy on
 * every resource at once, after the steps; a resource policy on each resource
 * in turn, in the order the program registers them (each with its URN),
 * before its step. The messages come back in order, each with the resource
 * it was reported at (`stack` for a stack policy).
 */
import type { Policy } from "@pulumi/policy";

export interface PolicyResource {
  type: string;
  name: string;
  props: Record<string, unknown>;
}

export async function runPolicy(
  policy: Policy,
  resources: PolicyResource[],
  config: Record<string, unknown> = {},
): Promise<Array<{ at: string; message: string | { message?: string } }>> {
  const found: Array<{ at: string; message: string | { message?: string } }> = [];
  if ("validateStack" in policy && policy.validateStack) {
    const validate = policy.validateStack as (args: never, report: (m: string) => void) => Promise<void>;
    await validate({ resources, getConfig: () => config } as never, (message) => found.push({ at: "stack", message }));
    return found;
  }
  const validate = (policy as unknown as { validateResource: (args: never, report: (m: string) => void) => Promise<void> }).validateResource;
  for (const resource of resources) {
    const args = { ...resource, urn: `urn:pulumi:ci::test::${resource.type}::${resource.name}`, getConfig: () => config };
    await validate(args as never, (message) => found.push({ at: resource.name, message }));
  }
  return found;
}
