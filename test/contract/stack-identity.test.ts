/**
 * The stack identity (docs/identity.md, "The evidence") on both fronts: the
 * one the state records; else the one `aicp:stackMark` pins; else a new random
 * one. A pin outlives what the state does not: a destroy (which removes the
 * TypeScript front's `aicp-stack-mark`) and a plugin upgrade (a new default
 * provider with no recorded inputs), so a create interrupted before either is
 * found again under the same marks and auto-names. A pin that differs from
 * the recorded identity is refused before anything is sent: taking it would
 * give new resources, and every replacement, other marks than the objects
 * already made.
 */
import { describe, expect, it } from "vitest";
import { startPlugin, type PluginProcess } from "../support/engine/plugin-process";
import { emulatorCredentials } from "../support/emulator";

const pin = "0123456789abcdef0123456789abcdef";
const recorded = "fedcba9876543210fedcba9876543210";
const settings = { baseUrl: "http://127.0.0.1:9", ...emulatorCredentials, zone: "xb3", skipCredentialsValidation: "true" };

/** The TypeScript front: the stack-mark resource's check in a provider process configured with the stack's `aicp:*` config. */
async function typescriptFront(config: Record<string, string>, olds: { value?: string }) {
  const { configureFrom } = await import("../../provider/context");
  const stackMark = await import("../../provider/stack-mark");
  configureFrom((key) => (key.startsWith("aicp:") ? config[key.slice(5)] : undefined));
  const result = await stackMark.check(olds, { value: undefined });
  return { value: result.inputs?.value, failures: (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`) };
}

type CheckResponse = InstanceType<PluginProcess["proto"]["CheckResponse"]>;

/** The plugin front: CheckConfig of the default provider with the stack's `aicp:*` config against its recorded inputs (none after an upgrade). */
async function pluginFront(config: Record<string, string>, olds: { stackMark?: string }) {
  const p = await startPlugin();
  try {
    const request = new p.proto.CheckRequest()
      .setUrn("urn:pulumi:ci::proj::pulumi:providers:aicp::default_0_2_0")
      .setOlds(p.grpc.toStruct(olds))
      .setNews(p.grpc.toStruct({ ...config, version: "0.2.0" }));
    const checked = await p.call<CheckResponse>("checkConfig", request);
    return {
      value: (p.grpc.toJson(checked.getInputs()) as { stackMark?: string }).stackMark,
      failures: checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
    };
  } finally {
    await p.close();
  }
}

const fronts = [
  ["TypeScript", (config: Record<string, string>, identity?: string) => typescriptFront(config, identity === undefined ? {} : { value: identity })],
  ["plugin", (config: Record<string, string>, identity?: string) => pluginFront(config, identity === undefined ? {} : { stackMark: identity })],
] as const;

describe.each(fronts)("the stack identity on the %s front", (_, identityCheck) => {
  it("is the pinned aicp:stackMark where the state records none (after a destroy, or a plugin upgrade's new default provider)", async () => {
    expect(await identityCheck({ ...settings, stackMark: pin })).toEqual({ value: pin, failures: [] });
  });

  it("is a recorded one of any form that an earlier version took, unpinned or pinned to it", async () => {
    const uuid = "3f2b8c1e-0d4a-4e5b-9c6f-7a8b9c0d1e2f";
    expect(await identityCheck(settings, "an earlier pin")).toEqual({ value: "an earlier pin", failures: [] });
    expect(await identityCheck({ ...settings, stackMark: uuid }, uuid)).toEqual({ value: uuid, failures: [] });
  });

  it("is the recorded one, pinned to the same value or not pinned", async () => {
    expect(await identityCheck({ ...settings, stackMark: recorded }, recorded)).toEqual({ value: recorded, failures: [] });
    expect(await identityCheck(settings, recorded)).toEqual({ value: recorded, failures: [] });
  });

  it("is new and random where neither the state nor the config holds one", async () => {
    const [a, b] = [await identityCheck(settings), await identityCheck(settings)];
    expect(a.value).toMatch(/^s2-[0-9a-f]{32}$/);
    expect(b.value).toMatch(/^s2-[0-9a-f]{32}$/);
    expect(a.value).not.toBe(b.value);
  });

  it("refuses a pin that differs from the recorded identity, saying where the recorded one is and how to pin it, quoting neither", async () => {
    const { failures } = await identityCheck({ ...settings, stackMark: pin }, recorded);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("aicp:stackMark");
    // Either may be a secret: the plugin records the identity as one, and a pin may have been set with --secret.
    expect(failures[0]).not.toContain(pin);
    expect(failures[0]).not.toContain(recorded);
    expect(failures[0]).toContain("pulumi stack export --show-secrets");
    expect(failures[0]).toContain("pulumi config set --secret aicp:stackMark");
  });

  it.each([
    ["too short", "0123456789abcde"],
    ["too long", "a".repeat(65)],
    ["made of other characters", `${pin.slice(0, 31)} `],
  ])("refuses a pin that is %s, naming the key and the rule", async (_, value) => {
    const outcome = identityCheck({ ...settings, stackMark: value }).then(
      (result) => result.failures.join("; "),
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const message = await outcome;
    expect(message).toContain("aicp:stackMark");
    expect(message).toContain("16 to 64 letters, digits, '-' or '_'");
  });
});
