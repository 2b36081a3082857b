/**
 * The plugin with the stack's `pulumi:autonaming` (plugin/autonaming.ts), through its gRPC service as the
 * engine calls it: a create killed before its answer, resumed by a plugin on a fresh runner (an empty
 * create journal). Where the setting's name is the logical name, the engine deletes first on every
 * replacement, so no create is made beside the object the state records, and the fresh runner adopts the
 * notebook the killed create made, as the TypeScript front does (test/contract/fresh-runner.test.ts).
 * Without the setting, or with a name that may hold a random part, it refuses it, named. Enforce gives
 * the proposed name as if the program set it; disable asks for a name.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { startPlugin, type PluginProcess } from "../support/engine/plugin-process";
import { stackConfig } from "../support/engine/providers";

type Props = Record<string, unknown>;
type Mode = "propose" | "enforce" | "disable";
const modes: Record<Mode, number> = { propose: 0, enforce: 1, disable: 2 };
const pin = "5a".repeat(16);
const notebook = { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1" } };

describe("the plugin with the stack's pulumi:autonaming", () => {
  let emulator: Emulator;
  const runners: string[] = [];
  const namespace = emulatorCredentials.userId.toLowerCase();
  const live = (name: unknown) => emulator.listNotebooks().filter((n) => n.namespace === namespace && n.name === name && !n.auto_delete_time);
  const creates = () => emulator.requests().filter((r) => r.operation === "createNotebook").length;
  const urnOf = (name: string) => `urn:pulumi:ci::proj::aicp:index:Notebook::${name}`;

  /** A plugin on a runner of its own (an empty journal), configured as the default provider with the emulator and the pinned stack identity. */
  async function pluginOnFreshRunner(): Promise<PluginProcess> {
    const dir = mkdtempSync(join(tmpdir(), "aicp-autonaming-runner-"));
    runners.push(dir);
    process.env.AICP_CREATE_JOURNAL_DIR = dir;
    const p = await startPlugin({ pollIntervalMs: 50 });
    const config = stackConfig({ ...emulatorCredentials, baseUrl: emulator.url, zone: emulatorZone, stackMark: pin, version: "0.1.0" });
    const checked = await p.call<InstanceType<PluginProcess["proto"]["CheckResponse"]>>(
      "checkConfig",
      new p.proto.CheckRequest().setUrn("urn:pulumi:ci::proj::pulumi:providers:aicp::default").setNews(p.grpc.toStruct(config)),
    );
    await p.call("configure", new p.proto.ConfigureRequest().setArgs(checked.getInputs()).setAcceptsecrets(true));
    return p;
  }

  /** Check with no old inputs (a create, or a targeted replacement), with the engine's autonaming options where given. */
  async function check(p: PluginProcess, name: string, autonaming?: { proposedName: string; mode: Mode }, props: Props = notebook) {
    const request = new p.proto.CheckRequest().setUrn(urnOf(name)).setNews(p.grpc.toStruct(props));
    if (autonaming) {
      request.setAutonaming(new p.proto.CheckRequest.AutonamingOptions().setProposedName(autonaming.proposedName).setMode(modes[autonaming.mode]));
    }
    const response = await p.call<InstanceType<PluginProcess["proto"]["CheckResponse"]>>("check", request);
    return { inputs: p.grpc.toJson(response.getInputs()), failures: response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`) };
  }

  /** Check with the recorded inputs `olds` (an update's). */
  async function checkWithOlds(p: PluginProcess, name: string, olds: Props, autonaming: { proposedName: string; mode: Mode }) {
    const request = new p.proto.CheckRequest().setUrn(urnOf(name)).setOlds(p.grpc.toStruct(olds)).setNews(p.grpc.toStruct(notebook));
    request.setAutonaming(new p.proto.CheckRequest.AutonamingOptions().setProposedName(autonaming.proposedName).setMode(modes[autonaming.mode]));
    const response = await p.call<InstanceType<PluginProcess["proto"]["CheckResponse"]>>("check", request);
    return { inputs: p.grpc.toJson(response.getInputs()) };
  }

  async function create(p: PluginProcess, name: string, inputs: Props): Promise<string> {
    const request = new p.proto.CreateRequest().setUrn(urnOf(name)).setProperties(p.grpc.toStruct(inputs)).setTimeout(30);
    return (await p.call<InstanceType<PluginProcess["proto"]["CreateResponse"]>>("create", request)).getId();
  }

  /** `pulumi up` on a runner, killed once the platform holds the notebook its create sent: the engine recorded nothing. */
  async function killedCreate(name: string, autonaming?: { proposedName: string; mode: Mode }): Promise<{ inputs: Props; uuid: string }> {
    const p = await pluginOnFreshRunner();
    const { inputs } = await check(p, name, autonaming);
    const answer = create(p, name, inputs).catch(() => undefined);
    const started = Date.now();
    while (live(inputs.name).length === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
    p.kill();
    await answer;
    return { inputs, uuid: String(live(inputs.name)[0]?.uuid) };
  }

  beforeAll(async () => {
    // Running only after a minute: the killed create is still waiting for it.
    emulator = await startTestEmulator({ notebookReadyDelayMs: 60_000 });
  });
  afterAll(async () => {
    await emulator?.close();
    for (const dir of runners) rmSync(dir, { recursive: true, force: true });
  });

  it("adopts the killed create's notebook where the proposed name is the logical name (`${name}`, verbatim): one create", async () => {
    for (const [name, mode] of [
      ["patterned", "propose"],
      ["verbatim", "enforce"],
    ] as const) {
      emulator.clearRequests();
      const { inputs, uuid } = await killedCreate(name, { proposedName: name, mode });
      const p = await pluginOnFreshRunner();
      emulator.clock.advance(60_000);
      const again = await check(p, name, { proposedName: name, mode });
      expect(again.inputs.name).toBe(inputs.name);
      expect(await create(p, name, again.inputs)).toBe(uuid);
      expect(creates()).toBe(1);
      expect(live(inputs.name).map((n) => n.uuid)).toEqual([uuid]);
      await p.close();
    }
  });

  it("refuses it, naming it and `pulumi import`, without the setting or where the proposed name may hold a random part", async () => {
    for (const [name, autonaming] of [
      ["unset", undefined],
      ["randomized", { proposedName: "randomized-1f2e", mode: "propose" as const }],
    ] as const) {
      emulator.clearRequests();
      const { inputs, uuid } = await killedCreate(name, autonaming);
      const p = await pluginOnFreshRunner();
      const refused = await create(p, name, (await check(p, name, autonaming)).inputs).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(refused?.message).toContain(uuid);
      expect(refused?.message).toContain("pulumi import");
      expect(creates()).toBe(1);
      expect(live(inputs.name).map((n) => n.uuid)).toEqual([uuid]);
      await p.close();
    }
  });

  it("names a new resource by an enforced name, kept as its auto-name, and asks for a name where auto-names are disabled", async () => {
    const p = await pluginOnFreshRunner();
    const enforced = (await check(p, "nb", { proposedName: "team-nb", mode: "enforce" })).inputs;
    expect(enforced).toMatchObject({ name: "team-nb", autoNamed: true });
    // The next run's setting proposes another name (a random part, a renamed stack): the recorded one stays.
    const next = await checkWithOlds(p, "nb", enforced, { proposedName: "team-nb-7c1d", mode: "enforce" });
    expect(next.inputs.name).toBe("team-nb");
    expect((await check(p, "nb", { proposedName: "team-nb", mode: "propose" })).inputs).toMatchObject({ autoNamed: true });
    expect((await check(p, "nb", { proposedName: "team-nb", mode: "propose" })).inputs.name).toMatch(/^nb-[0-9a-f]{7}$/);
    expect((await check(p, "nb", { proposedName: "", mode: "disable" })).failures).toEqual([
      // The engine prints it under the resource (check-failures.ts leaves the property out of every failure).
      ": name is required: the stack's pulumi:autonaming disables auto-names for this provider",
    ]);
    expect((await check(p, "nb", { proposedName: "", mode: "disable" }, { ...notebook, name: "given" })).failures).toEqual([]);
    await p.close();
  });
});
