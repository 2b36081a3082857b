/**
 * Which arguments the program marked secret, for the provider process.
 *
 * The engine hands the nodejs dynamic provider every input unwrapped (it does
 * not accept secrets), so the provider cannot tell a `pulumi.secret(...)` from
 * a plain value, and a platform error that echoes the request would print it.
 * The SDK, which still sees the marks, sends their paths in the resource's
 * `secretInputs` property; the provider keeps every value found there out of
 * what it prints (provider/secrets.ts rememberMarkedSecrets). The paths name
 * no value, so the list itself is not secret.
 */
import * as pulumi from "@pulumi/pulumi";

/** The paths, as `pip`, `replicaSpecs.specs` or `envs[0].value`, of the values of `args` held in secret Outputs. */
export function secretPathsOf(args: object): pulumi.Output<string[] | undefined> {
  const found: string[] = [];
  const walks = Object.entries(args).map(([key, value]) => collect(value, key, found));
  // Undefined when nothing is marked: the inputs of a program without secrets stay as they were.
  return pulumi.output(Promise.all(walks).then(() => (found.length > 0 ? found.sort() : undefined)));
}

async function collect(value: unknown, path: string, found: string[]): Promise<void> {
  if (pulumi.Output.isInstance(value)) {
    // An Output is marked as a whole: what it holds is resolved only by the engine, and a preview may not know it.
    if (await pulumi.isSecret(value)) found.push(path);
    return;
  }
  if (value instanceof Promise) return collect(await value, path, found);
  if (Array.isArray(value)) {
    await Promise.all(value.map((item, i) => collect(item, `${path}[${i}]`, found)));
    return;
  }
  if (value !== null && typeof value === "object") {
    await Promise.all(Object.entries(value).map(([key, item]) => collect(item, `${path}.${key}`, found)));
  }
}
