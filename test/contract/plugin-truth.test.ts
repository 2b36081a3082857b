/**
 * What the state records through the plugin, where the generated SDKs and
 * YAML do less than the TypeScript SDK: registry passwords and env values
 * given in plain text, secrets after a refresh, and ignoreChanges after the
 * console changed a notebook, through the in-process engine
 * (test/support/engine/stack.ts) calling the plugin's gRPC service with the
 * requests a YAML program makes. That the provider's warnings reach the real
 * engine's diagnostics is test/e2e/plugin-diagnostics.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";
import { emulatorStack } from "../support/engine/programs";
import { secret, type InProcessStack, type Program } from "../support/engine/stack";
import { NS, platformConsole, type PlatformConsole } from "../support/platform-console";

const password = "registry-password-in-plain-text";
const token = "env-token-in-plain-text";
const pipSecret = "https://bot:pip-token-marked-secret@pypi.example/simple";

/** The YAML program of test/e2e/plugin-truth.test.ts: passwords in plain text, pip marked secret (fn::secret). */
const program: Program = {
  resources: [
    {
      kind: "Notebook",
      name: "nb",
      inputs: {
        chargeMode: "elastic",
        duration: 3600,
        image: "registry.example/team/jupyter:1",
        imageType: "custom",
        serverType: "jupyter",
        stopTime: "2031-01-01T00:00:00Z",
        replicaSpecs: { specs: "sku-1", customCpu: 2 },
        customImageSecret: { hasAuth: true, username: "bot", password },
        envs: [{ name: "TOKEN", value: token }],
        pip: secret(pipSecret),
      },
      ignoreChanges: ["stopTime", "desiredState"],
    },
  ],
  outputs: (outs) => ({ uuid: outs.nb?.uuid }),
};

describe("the plugin's state: secrets and what the console changed (in-process engine)", () => {
  let emulator: Emulator;
  let stack: InProcessStack;
  let platform: PlatformConsole;
  const writes = () =>
    emulator
      .requests()
      .filter((r) => r.operation !== "admin" && r.method !== "GET")
      .map((r) => r.operation);
  const expectNoSecretIn = (text: string) => {
    for (const value of [password, token, pipSecret]) expect(text).not.toContain(value);
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    stack = emulatorStack(emulator);
    platform = platformConsole(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("keeps a registry password and env values given in plain text out of the state and the preview", async () => {
    await stack.up(program);
    expect(platform.notebook().envs).toContainEqual({ name: "TOKEN", value: token });
    expectNoSecretIn(stack.checkpoint());
    // A preview of an unchanged resource prints its checked inputs and recorded outputs, which are the
    // checkpoint's (the engine prints a value marked secret as [secret], as it encrypts it there), and its warnings.
    const preview = await stack.preview(program);
    expect(preview.steps.map((s) => s.op)).toEqual(["same"]);
    expectNoSecretIn(preview.warnings.join("\n") + stack.checkpoint());
  });

  it("after the console moved the stop time and stopped the notebook, refresh and up keep both (ignoreChanges), and secrets stay encrypted", async () => {
    const uuid = String(platform.notebook().uuid);
    expect((await platform.console.post(`${NS}/notebooks/set_stop_time`, { uuid, stop_time: "2032-06-01T00:00:00Z" })).json.ret_code).toBe(0);
    expect((await platform.console.post(`${NS}/notebooks/stop`, { uuids: [uuid] })).json.ret_code).toBe(0);
    await stack.refresh();
    expectNoSecretIn(stack.checkpoint());
    emulator.clearRequests();
    await stack.up(program);
    expect(writes()).toEqual([]);
    expect(platform.notebook()).toMatchObject({ status: "Stopped" });
    expect(String(platform.notebook().stop_time)).toMatch(/^2032-06-01/);
  });

  it("a take-over's preview warns what it will take over, and takes nothing", async () => {
    const [uuid] = emulator.seedNotebooks({ namespace: emulatorCredentials.userId.toLowerCase(), count: 1, namePrefix: "console" });
    const other = emulatorStack(emulator, { project: "plugin-adopt" });
    const adopt: Program = {
      resources: [
        {
          kind: "Notebook",
          name: "research",
          inputs: {
            adoptId: uuid,
            chargeMode: "elastic",
            duration: 3600,
            image: "jupyter:2",
            imageType: "official",
            serverType: "jupyter",
            replicaSpecs: { customCpu: 2 },
          },
        },
      ],
    };
    emulator.clearRequests();
    const preview = await other.preview(adopt);
    expect(preview.steps.map((s) => s.op)).toEqual(["create"]);
    expect(preview.warnings.join("\n")).toMatch(new RegExp(`will take over notebook ${uuid}`));
    expect(writes()).toEqual([]);
  });

  it("destroy removes the notebook", async () => {
    await stack.destroy();
    // The take-over was only previewed: the console-made notebook stays.
    expect(
      emulator
        .listNotebooks()
        .filter((n) => n.namespace === emulatorCredentials.userId.toLowerCase())
        .map((n) => n.name),
    ).toEqual(["console-0000"]);
    expect(stack.resources).toEqual([]);
  });
});
