/**
 * The TypeScript SDK makes the registry credentials secret when the program
 * gives the password in plain text: the password is marked, and the engine
 * receives the object that holds it as one secret. Pulumi's mocks stand in
 * for the engine: they see the inputs the resource registers, secrets marked.
 */
import { describe, expect, it, vi } from "vitest";

describe("the Notebook's registry credentials and env values", () => {
  it("reach the engine as secrets, though the program gave the password and the values in plain text", async () => {
    vi.resetModules();
    const pulumi = await import("@pulumi/pulumi");
    const registered: Array<Record<string, unknown>> = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          if (args.type.endsWith(":Notebook")) registered.push(args.inputs as Record<string, unknown>);
          return { id: `${args.name}-id`, state: args.type.endsWith(":StackMark") ? { value: "s1" } : args.inputs };
        },
        call: (args) => args.inputs,
      },
      "secrets",
      "ci",
      false,
    );
    const sdk = await import("../../sdk");
    const nb = new sdk.Notebook("nb", {
      chargeMode: "elastic",
      duration: 3600,
      image: "registry.example/team/img:1",
      imageType: "custom",
      serverType: "jupyter",
      replicaSpecs: { specs: "sku-1" },
      customImageSecret: { hasAuth: true, username: "robot", password: "hunter2" },
      envs: [{ name: "HF_TOKEN", value: "hf_plain_in_program" }],
    });
    await new Promise<void>((resolve) => nb.urn.apply(() => resolve()));
    const inputs = registered[0]!;
    // Pulumi's marshalled form of a secret: an object carrying the secret signature and the value.
    const signature = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
    expect(inputs.customImageSecret).toEqual({ ...signature, value: { hasAuth: true, username: "robot", password: "hunter2" } });
    // Env values too, as the plugin keeps them: the whole list, given in plain text.
    expect(inputs.envs).toEqual({ ...signature, value: [{ name: "HF_TOKEN", value: "hf_plain_in_program" }] });
  });
});
