/**
 * The guardrails as an analyzer plugin of their own: what the engine starts
 * for `pulumi preview --policy-pack <pulumi-aicp>/policy/pack/aicp-guardrails`
 * (an executable policy pack, which Pulumi CLIs take since pulumi/pulumi#24052,
 * July 2026). It serves the engine's Analyzer protocol with the pack's
 * policies through policy/runtime.ts, on gRPC, and prints its port, as every
 * plugin does. The folder form (`--policy-pack <pulumi-aicp>/policy/pack`)
 * runs the same policies through @pulumi/policy (policy/index.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import { createRequire } from "node:module";
import { policies } from "./policies";
import { isStackPolicy, PolicyRuntime, type AnalyzedResource, type EnforcementLevel, type PolicyConfig, type Violation } from "./runtime";

// @pulumi/pulumi's generated protocol modules, without the SDK itself; gRPC and protobuf as they load them, so the
// messages and the service are of one copy whatever the layout of node_modules.
const services = require("@pulumi/pulumi/proto/analyzer_grpc_pb.js");
const proto = require("@pulumi/pulumi/proto/analyzer_pb.js");
const pluginProto = require("@pulumi/pulumi/proto/plugin_pb.js");
const asTheSdk = createRequire(require.resolve("@pulumi/pulumi/proto/analyzer_grpc_pb.js"));
const grpc = asTheSdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const { Empty } = asTheSdk("google-protobuf/google/protobuf/empty_pb.js");
const { Struct } = asTheSdk("google-protobuf/google/protobuf/struct_pb.js");

/** The pack's name and version, as the folder form reports them (policy/index.ts, policy/pack/package.json). */
export function guardrailsRuntime(): PolicyRuntime {
  const { version } = JSON.parse(readFileSync(join(__dirname, "../../policy/pack/package.json"), "utf8")) as { version: string };
  return new PolicyRuntime(policies, "aicp-guardrails", version, "mandatory");
}

const levels: Record<EnforcementLevel, number> = {
  advisory: proto.EnforcementLevel.ADVISORY,
  mandatory: proto.EnforcementLevel.MANDATORY,
  remediate: proto.EnforcementLevel.REMEDIATE,
  disabled: proto.EnforcementLevel.DISABLED,
};
const levelOf = (wire: number): EnforcementLevel | undefined => (Object.entries(levels) as Array<[EnforcementLevel, number]>).find(([, n]) => n === wire)?.[0];

interface WireResource {
  getType(): string;
  getName(): string;
  getUrn(): string;
  getProperties(): { toJavaScript(): Record<string, unknown> } | undefined;
}
const resourceOf = (r: WireResource): AnalyzedResource => ({
  type: r.getType(),
  name: r.getName(),
  urn: r.getUrn(),
  properties: r.getProperties()?.toJavaScript() ?? {},
});

function answer(violations: Violation[]) {
  const response = new proto.AnalyzeResponse();
  response.setDiagnosticsList(
    violations.map((v) => {
      const diagnostic = new proto.AnalyzeDiagnostic();
      diagnostic.setPolicyname(v.policyName);
      diagnostic.setPolicypackname(v.policyPackName);
      diagnostic.setPolicypackversion(v.policyPackVersion);
      diagnostic.setDescription(v.description);
      diagnostic.setMessage(v.message);
      diagnostic.setEnforcementlevel(levels[v.enforcementLevel]);
      if (v.urn) diagnostic.setUrn(v.urn);
      return diagnostic;
    }),
  );
  return response;
}

function info(runtime: PolicyRuntime) {
  const analyzer = new proto.AnalyzerInfo();
  analyzer.setName(runtime.packName);
  analyzer.setVersion(runtime.packVersion);
  analyzer.setSupportsconfig(true);
  analyzer.setPoliciesList(
    runtime.policies.map((policy) => {
      const described = new proto.PolicyInfo();
      described.setName(policy.name);
      described.setDescription(policy.description);
      described.setPolicyType(isStackPolicy(policy) ? proto.PolicyType.POLICY_TYPE_STACK : proto.PolicyType.POLICY_TYPE_RESOURCE);
      described.setEnforcementlevel(levels[policy.enforcementLevel ?? runtime.packLevel]);
      if (policy.configSchema) {
        const schema = new proto.PolicyConfigSchema();
        schema.setProperties(Struct.fromJavaScript(policy.configSchema.properties));
        if (policy.configSchema.required) schema.setRequiredList(policy.configSchema.required);
        described.setConfigschema(schema);
      }
      return described;
    }),
  );
  return analyzer;
}

type Callback = (error: grpcTypes.ServiceError | Error | null | { code: grpcTypes.status; details: string }, value?: unknown) => void;
type Call = { request: Record<string, (...args: never[]) => unknown> };

/** Answers one call; a policy that fails is the engine's error for that call, with its message. */
function handler(work: (call: Call) => unknown) {
  return (call: Call, callback: Callback) => {
    Promise.resolve()
      .then(() => work(call))
      .then(
        (value) => callback(null, value),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
  };
}

/** Starts the analyzer on a free local port and tells it (the engine reads it from stdout). */
export async function serve(
  runtime = guardrailsRuntime(),
  announce: (port: number) => void = (port) => void process.stdout.write(`${port}\n`),
): Promise<grpcTypes.Server> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  const unimplemented = (_call: Call, callback: Callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "not implemented by aicp-guardrails" });
  server.addService(services.AnalyzerService, {
    // The engine goes on without these when a plugin does not implement them.
    handshake: unimplemented,
    configureStack: unimplemented,
    remediate: unimplemented,
    getAnalyzerInfo: handler(() => info(runtime)),
    getPluginInfo: handler(() => {
      const plugin = new pluginProto.PluginInfo();
      plugin.setVersion(runtime.packVersion);
      return plugin;
    }),
    configure: handler((call) => {
      const config: Record<string, PolicyConfig> = {};
      const entries = (call.request.getPolicyconfigMap as () => Map<string, { getEnforcementlevel(): number; getProperties(): { toJavaScript(): object } }>)();
      for (const [name, policyConfig] of entries.entries()) {
        config[name] = { ...policyConfig.getProperties()?.toJavaScript(), enforcementLevel: levelOf(policyConfig.getEnforcementlevel()) };
      }
      runtime.configure(config);
      return new Empty();
    }),
    analyze: handler(async (call) => answer(await runtime.analyzeResource(resourceOf(call.request as unknown as WireResource)))),
    analyzeStack: handler(async (call) => answer(await runtime.analyzeStack((call.request.getResourcesList as () => WireResource[])().map(resourceOf)))),
    cancel: handler(() => new Empty()),
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  announce(port);
  return server;
}

if (require.main === module) {
  serve().catch((error: unknown) => {
    process.stderr.write(`aicp-guardrails: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
