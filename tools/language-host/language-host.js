// A minimal nodejs language host for the pulumi CLI, used only where the CLI
// was built from the Go module proxy: that proxy serves no version of the
// language host module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3),
// so `pulumi up` on a Pulumi.yaml would have no way to run a nodejs program.
//
// It serves the LanguageRuntime RPCs the engine needs to run a program
// (GetRequiredPlugins, Run, GetPluginInfo) with the language server that
// @pulumi/pulumi itself uses for Automation API inline programs, loaded from
// the program's own node_modules so program and runtime share one copy of the
// SDK. Everything else answers UNIMPLEMENTED. A normal Pulumi installation
// brings the real host and never uses this file.
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const engineAddress = process.argv.slice(2).filter((a) => !a.startsWith("-")).pop() ?? "";
const fromProject = createRequire(path.join(process.cwd(), "package.json"));

function load(id) {
  try {
    return fromProject(id);
  } catch (error) {
    console.error(`pulumi-language-nodejs: cannot load ${id} from ${process.cwd()}: run npm install in the project (${error.message})`);
    process.exit(1);
  }
}

const grpc = load("@grpc/grpc-js");
const langrpc = load("@pulumi/pulumi/proto/language_grpc_pb.js");
const { LanguageServer } = load("@pulumi/pulumi/automation/server.js");
const { grpcChannelOptions } = load("@pulumi/pulumi/runtime/index.js");

/** The program's entry: ProgramInfo when the engine sends it, else pwd + program. */
function entryOf(request) {
  const info = request.getInfo && request.getInfo();
  if (info && info.getProgramDirectory()) return path.resolve(info.getProgramDirectory(), info.getEntryPoint() || ".");
  return path.resolve(request.getPwd() || process.cwd(), request.getProgram() || ".");
}

let entry;
const server = new LanguageServer(async () => {
  // The program's exports become the stack's outputs.
  return fromProject(entry);
});

const service = {
  getRequiredPlugins: (call, callback) => server.getRequiredPlugins(call, callback),
  getPluginInfo: (call, callback) => server.getPluginInfo(call, callback),
  run: (call, callback) => {
    const request = call.request;
    entry = entryOf(request);
    if (request.getPwd()) process.chdir(request.getPwd());
    // The shared language server reads the engine's address from the first argument.
    const args = [engineAddress, ...request.getArgsList()];
    const proxied = Object.create(request, { getArgsList: { value: () => args } });
    return server.run({ ...call, request: proxied }, callback);
  },
};

const grpcServer = new grpc.Server({ ...grpcChannelOptions });
grpcServer.addService(langrpc.LanguageRuntimeService, service);
grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    console.error(`pulumi-language-nodejs: ${error.message}`);
    process.exit(1);
  }
  // The engine reads the port from the first line of stdout.
  console.log(port);
});
