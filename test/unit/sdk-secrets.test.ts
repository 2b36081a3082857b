/**
 * The TypeScript SDK makes the registry credentials secret when the program
 * gives the password in plain text: the password is marked, and the engine
 * receives the object that holds it as one secret. Pulumi's mocks stand in
 * for the engine: they see the inputs the resource registers, secrets marked.
 */
import { describe, expect, it, vi } from "vitest";

/** The inputs each resource registers, as Pulumi's mocks receive them, by resource name. */
async function registered(declare: (pulumi: typeof import("@pulumi/pulumi"), sdk: typeof import("../../sdk")) => unknown[]) {
  vi.resetModules();
  const pulumi = await import("@pulumi/pulumi");
  const seen = new Map<string, Record<string, unknown>>();
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        seen.set(args.name, args.inputs as Record<string, unknown>);
        return { id: `${args.name}-id`, state: args.type.endsWith(":StackMark") ? { value: "s1" } : args.inputs };
      },
      call: (args) => args.inputs,
    },
    "marked",
    "ci",
    false,
  );
  const sdk = await import("../../sdk");
  const resources = declare(pulumi, sdk) as Array<{ urn: import("@pulumi/pulumi").Output<string> }>;
  await Promise.all(resources.map((r) => new Promise<void>((resolve) => r.urn.apply(() => resolve()))));
  return seen;
}

describe("the Notebook's registry credentials and env values", () => {
  it("reach the engine as secrets, though the program gave the password and the values in plain text", async () => {
    const seen = await registered((_pulumi, sdk) => [
      new sdk.Notebook("nb", {
        chargeMode: "elastic",
        duration: 3600,
        image: "registry.example/team/img:1",
        imageType: "custom",
        serverType: "jupyter",
        replicaSpecs: { specs: "sku-1" },
        customImageSecret: { hasAuth: true, username: "robot", password: "hunter2" },
        envs: [{ name: "HF_TOKEN", value: "hf_plain_in_program" }],
      }),
    ]);
    const inputs = seen.get("nb")!;
    // Pulumi's marshalled form of a secret: an object carrying the secret signature and the value.
    const signature = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
    expect(inputs.customImageSecret).toEqual({ ...signature, value: { hasAuth: true, username: "robot", password: "hunter2" } });
    // Env values too, as the plugin keeps them: the whole list, given in plain text.
    expect(inputs.envs).toEqual({ ...signature, value: [{ name: "HF_TOKEN", value: "hf_plain_in_program" }] });
  });
});

describe("the arguments a program marks secret", () => {
  it("reach the provider as paths, top-level and nested, named in secretInputs", async () => {
    const seen = await registered((pulumi, sdk) => [
      new sdk.Notebook("nb", {
        chargeMode: "elastic",
        duration: 3600,
        image: "img:1",
        imageType: "official",
        serverType: "jupyter",
        pip: pulumi.secret("torch --index-url https://tok-12345@pypi.example/simple"),
        replicaSpecs: { specs: pulumi.secret("sku-1"), customGpu: 1 },
        podTypes: undefined,
      } as never),
      new sdk.ResourceGroup("rg", { skuId: "sku-1", podTypes: ["job"], description: pulumi.secret("cost centre 4711") }),
      new sdk.ResourceGroup("plain", { skuId: "sku-1", podTypes: ["job"], description: "nothing to hide" }),
    ]);
    expect(seen.get("nb")?.secretInputs).toEqual(["pip", "replicaSpecs.specs"]);
    expect(seen.get("rg")?.secretInputs).toEqual(["description"]);
    // A program that marks nothing registers no list: its inputs are what earlier versions recorded.
    expect(seen.get("plain")).not.toHaveProperty("secretInputs");
  });
});
