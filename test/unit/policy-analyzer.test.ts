/**
 * The executable pack's analyzer (policy/analyzer.ts) and @pulumi/policy's
 * own server, both over gRPC as the engine calls them: the same
 * GetAnalyzerInfo, and, configured alike (every policy with the level and
 * settings the engine sends), the same diagnostics for the same notebooks.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serve } from "../../policy/analyzer";
import { policies } from "../../policy/policies";
import { PolicyRuntime } from "../../policy/runtime";

const proto = require("@pulumi/pulumi/proto/analyzer_pb.js");
const services = require("@pulumi/pulumi/proto/analyzer_grpc_pb.js");
const asTheSdk = createRequire(require.resolve("@pulumi/pulumi/proto/analyzer_grpc_pb.js"));
const grpc = asTheSdk("@grpc/grpc-js");
const { Struct } = asTheSdk("google-protobuf/google/protobuf/struct_pb.js");
const { Empty } = asTheSdk("google-protobuf/google/protobuf/empty_pb.js");

type Client = Record<string, (request: unknown, callback: (error: unknown, response: never) => void) => void> & { close(): void };
const call = <T>(client: Client, method: string, request: unknown) =>
  new Promise<T>((resolve, reject) => client[method]!(request, (error, response) => (error ? reject(error) : resolve(response))));

const levels = ["advisory", "mandatory", "disabled", "remediate"];
const notebookType = "aicp:index:Notebook";
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const base = { chargeMode: "elastic", image: "registry.team/jupyter:1", imageType: "custom", stopTime: "2099-01-01T00:00:00Z" };
const notebooks: Array<[string, Record<string, unknown>]> = [
  ["fine", { ...base, replicaSpecs: { specs: "sku-1", customGpu: 1 } }],
  ["six", { ...base, replicaSpecs: { specs: "sku-1", customGpu: 6 } }],
  ["endless", { ...base, stopTime: null, replicaSpecs: { specs: "sku-1", customGpu: 1 } }],
  ["outside", { ...base, image: secret("docker.io/someone/miner:latest"), replicaSpecs: { specs: "sku-1", customGpu: 1 } }],
  ["later", { ...base, stopTime: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", replicaSpecs: { specs: "sku-1", customGpu: 1 } }],
  ["monthly", { ...base, chargeMode: "monthly", duration: 2, replicaSpecs: { specs: "sku-1", customGpu: 2 } }],
];

function described<T>(message: T, name: string, properties: Record<string, unknown>): T {
  const m = message as Record<string, (value: unknown) => void>;
  m.setOptions!(new proto.AnalyzerResourceOptions());
  m.setType!(notebookType);
  m.setName!(name);
  m.setUrn!(`urn:pulumi:ci::guarded::${notebookType}::${name}`);
  m.setProperties!(Struct.fromJavaScript(properties));
  return message;
}

/** As the engine configures a pack: every policy, each with a level and its settings. */
function configuration(config: Record<string, { level: string; settings?: Record<string, unknown> }>) {
  const request = new proto.ConfigureAnalyzerRequest();
  for (const policy of policies) {
    const given = config[policy.name] ?? { level: policy.enforcementLevel ?? "mandatory" };
    const entry = new proto.PolicyConfig();
    entry.setEnforcementlevel(levels.indexOf(given.level));
    entry.setProperties(Struct.fromJavaScript(given.settings ?? {}));
    request.getPolicyconfigMap().set(policy.name, entry);
  }
  return request;
}

/** Every diagnostic of Analyze for each notebook and of AnalyzeStack; hours, which run from now, left out. */
async function diagnostics(client: Client) {
  const view = (response: { getDiagnosticsList(): Array<Record<string, () => unknown>> }) =>
    response.getDiagnosticsList().map((d) => ({
      policy: d.getPolicyname!(),
      level: levels[d.getEnforcementlevel!() as number],
      message: String(d.getMessage!()).replace(/[\d.,]+ (GPU-)?h/g, "N h"),
      urn: d.getUrn!(),
    }));
  const found = [];
  for (const [name, props] of notebooks) found.push(...view(await call(client, "analyze", described(new proto.AnalyzeRequest(), name, props))));
  const stack = new proto.AnalyzeStackRequest();
  stack.setResourcesList(notebooks.map(([name, props]) => described(new proto.AnalyzerResource(), name, props)));
  found.push(...view(await call(client, "analyzeStack", stack)));
  return found;
}

describe("the executable pack's analyzer against @pulumi/policy's server, over gRPC", () => {
  let ours: Client;
  let theirs: Client;
  const connect = (port: number) => new services.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as Client;

  beforeAll(async () => {
    let ourPort = 0;
    await serve(new PolicyRuntime(policies, "aicp-guardrails", "0.1.0", "mandatory"), (port) => (ourPort = port));
    // @pulumi/policy's server prints its port with console.log.
    const printed: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void printed.push(String(line)));
    require("@pulumi/policy/server").serve("aicp-guardrails", "0.1.0", "mandatory", { policies });
    await vi.waitFor(() => expect(printed).toHaveLength(1));
    log.mockRestore();
    ours = connect(ourPort);
    theirs = connect(Number(printed[0]));
  });
  afterAll(() => {
    ours?.close();
    theirs?.close();
  });

  it("describes the same pack", async () => {
    const info = async (client: Client) => (await call<{ toObject(): unknown }>(client, "getAnalyzerInfo", new Empty())).toObject();
    expect(await info(ours)).toEqual(await info(theirs));
  });

  it.each([
    ["each policy at its own level", {}],
    [
      "levels and settings from a configuration",
      {
        "aicp-notebook-max-gpus": { level: "advisory", settings: { maxGpusPerNotebook: 4 } },
        "aicp-notebook-max-lifetime": { level: "disabled" },
        "aicp-notebook-allowed-images": { level: "mandatory", settings: { allowedImagePrefixes: ["registry.team/"] } },
        "aicp-stack-max-gpus": { level: "remediate", settings: { maxGpusPerStack: 2 } },
        "aicp-gpu-hours-summary": { level: "advisory", settings: { pricePerGpuHour: 2 } },
      },
    ],
  ])("reports what it reports: %s", async (_, config) => {
    await call(ours, "configure", configuration(config));
    await call(theirs, "configure", configuration(config));
    const found = await diagnostics(ours);
    expect(found.length).toBeGreaterThanOrEqual(4);
    expect(found).toEqual(await diagnostics(theirs));
  });
});
