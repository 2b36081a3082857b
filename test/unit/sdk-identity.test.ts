/**
 * The TypeScript SDK's side of the misbehaving-platform cases "same stack
 * name, two backends", "same name, two parents" and "forced replacement"
 * (the plugin's side runs in-process in test/contract/misbehaving-names.test.ts):
 * every resource asks the engine to delete before it replaces (the engine
 * never asks the provider on `--replace`), and a resource's
 * auto-name suffix and mark (sdk/forward.ts) differ between two stacks of one
 * project and stack name (each has its own random id, the StackMark resource)
 * and between two parents of one resource name, and are the same on every run
 * of one stack. Pulumi's mocks stand in for the engine; a fresh module copy
 * is a new program run.
 */
import { describe, expect, it, vi } from "vitest";
import type { ResourceKind } from "../../sdk/forward";

/** Mocks for one program run of stack `ci` of project `twin` whose StackMark holds `stackId`; returns the fresh SDK and Pulumi. */
async function programRun(stackId: string) {
  vi.resetModules();
  const pulumi = await import("@pulumi/pulumi");
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.type.endsWith(":StackMark") ? { value: stackId } : args.inputs }),
      call: (args) => args.inputs,
    },
    "twin",
    "ci",
    false,
  );
  return { pulumi, sdk: await import("../../sdk") };
}

/** One program run of stack `ci` of project `twin` whose StackMark holds `stackId`: the identity of `kind` `name` under `team`'s component, or at the top. */
async function identity(stackId: string, kind: ResourceKind, name: string, team?: string): Promise<{ suffix: string; mark: string }> {
  const { pulumi } = await programRun(stackId);
  const forward = await import("../../sdk/forward");
  const parent = team === undefined ? undefined : new pulumi.ComponentResource(`team:${team}:Team`, team, {});
  const value = (output: { apply<U>(f: (v: string) => U): unknown }) => new Promise<string>((resolve) => output.apply(resolve));
  return { suffix: await value(forward.autoNameSuffix(kind, name, parent)), mark: await value(forward.ownerMark(kind, name, parent)) };
}

describe("the TypeScript SDK's identity of a resource", () => {
  // Computed with sha256sum, not with the SDK: printf 'twin/ci/Notebook/nb\n\ns1' | sha256sum (suffix), printf 's1\nNotebook\nnb\n' | sha256sum (mark).
  it("is the digest of its place and the stack's random id, as recorded by earlier versions", async () => {
    expect(await identity("s1", "Notebook", "nb")).toEqual({ suffix: "1487b32", mark: "078bd0b7023f86c9161f89d30c6e3f06" });
    expect(await identity("s1", "Notebook", "nb", "a")).toEqual({ suffix: "a989d2d", mark: "24d41409fbfe9de992159a2fce6ab852" });
  });

  it("keeps the earlier form for an identity that only begins like one this provider makes (an earlier version recorded any text)", async () => {
    expect((await identity("s2-team-prod-0001", "Notebook", "nb")).suffix).toMatch(/^[0-9a-f]{7}$/);
    expect((await identity("s2-0123456789ABCDEF0123456789ABCDEF", "Notebook", "nb")).suffix).toMatch(/^[0-9a-f]{7}$/);
  });

  // printf 'aicp-stack-token\n<id>' | sha256sum (the token), printf 'twin/ci/Notebook/nb\n\n<id>' | sha256sum, printf '<id>\nNotebook\nnb\n' | sha256sum.
  it("begins with the stack's token where the identity is of the form this provider makes now (s2-)", async () => {
    const id = "s2-0123456789abcdef0123456789abcdef";
    expect(await identity(id, "Notebook", "nb")).toEqual({ suffix: "48cc10-b0e5a67", mark: "c83a004609b31e043f93d99263a862b4" });
  });

  it("is the same on every run of one stack", async () => {
    expect(await identity("id-a", "Notebook", "research")).toEqual(await identity("id-a", "Notebook", "research"));
    expect(await identity("id-a", "Notebook", "worker", "a")).toEqual(await identity("id-a", "Notebook", "worker", "a"));
  });

  it("differs between two stacks of one project and stack name (two backends: two random ids)", async () => {
    const a = await identity("id-a", "Notebook", "research");
    const b = await identity("id-b", "Notebook", "research");
    expect(a.suffix).toMatch(/^[0-9a-f]{7}$/);
    expect(a.mark).toMatch(/^[0-9a-f]{32}$/);
    expect(b.suffix).not.toBe(a.suffix);
    expect(b.mark).not.toBe(a.mark);
  });

  it("differs between two parents of one resource name, and from the same name at the top", async () => {
    for (const kind of ["Notebook", "ResourceGroup"] as const) {
      const [a, b, top] = [await identity("id-a", kind, "worker", "a"), await identity("id-a", kind, "worker", "b"), await identity("id-a", kind, "worker")];
      expect(new Set([a.suffix, b.suffix, top.suffix]).size).toBe(3);
      expect(new Set([a.mark, b.mark, top.mark]).size).toBe(3);
    }
  });
});

describe("the TypeScript SDK's replacements", () => {
  it("delete first, whatever the program's options say: a new object would carry the old one's name and mark", async () => {
    const { sdk } = await programRun("id-a");
    const runtime = (await import("@pulumi/pulumi/runtime/resource")) as unknown as { default: Record<string, (...args: unknown[]) => unknown> };
    const registered = vi.spyOn(runtime.default, "registerResource");
    try {
      new sdk.Notebook(
        "research",
        { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1" } },
        { deleteBeforeReplace: false },
      );
      new sdk.ResourceGroup("pool", { skuId: "sku-1", podTypes: ["instance"] });
      const options = (type: string) => registered.mock.calls.find((call) => call[2] === type)?.[8] as { deleteBeforeReplace?: boolean } | undefined;
      expect(options("pulumi-nodejs:dynamic/aicp:Notebook")?.deleteBeforeReplace).toBe(true);
      expect(options("pulumi-nodejs:dynamic/aicp:ResourceGroup")?.deleteBeforeReplace).toBe(true);
    } finally {
      registered.mockRestore();
    }
  });
});
