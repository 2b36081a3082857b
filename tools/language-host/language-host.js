// A minimal nodejs language host for the pulumi CLI, used only where the CLI
// was built from the Go module proxy: that proxy serves no version of the
// language host module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3),
// so `pulumi up` on a Pulumi.yaml would have no way to run a nodejs program.
//
// It serves the LanguageRuntime RPCs the engine needs to run a program
// (GetRequiredPlugins, Run, GetPluginInfo, and RunPlugin for policy packs) with the language server that
// @pulumi/pulumi itself uses for Automation API inline programs, loaded from
// the program's own node_modules so program and runtime share one copy of the
// SDK; and GenerateProgram (the TypeScript `pulumi import` writes) through
// Pulumi's own nodejs program generator, built from the Go module proxy
// (tools/sdkgen/program.go). Everything else answers UNIMPLEMENTED. A normal
// Pulumi installation brings the real host and never uses this file.
"use strict";
const path = require("node:path");
const { spawn } = require("node:child_process");
const { existsSync, readFileSync } = require("node:fs");
const { createRequire } = require("node:module");

const engineAddress =
  process.argv
    .slice(2)
    .filter((a) => !a.startsWith("-"))
    .pop() ?? "";
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
const langproto = load("@pulumi/pulumi/proto/language_pb.js");
const { grpcChannelOptions } = load("@pulumi/pulumi/runtime/settings.js");

/** The program's entry: ProgramInfo when the engine sends it, else pwd + program. */
function entryOf(request) {
  const info = request.getInfo && request.getInfo();
  if (info && info.getProgramDirectory()) return typescriptIndex(path.resolve(info.getProgramDirectory(), info.getEntryPoint() || "."));
  return typescriptIndex(path.resolve(request.getPwd() || process.cwd(), request.getProgram() || "."));
}

/**
 * TypeScript programs run as written: Node.js 22.18 and later strip types
 * when it loads a `.ts` file (the package's minimum, package.json "engines",
 * is 22.19), so `require` runs an `index.ts` or a package.json `main` naming
 * one. The real host registers ts-node instead, which lets a folder's
 * `index.ts` stand for its index.js; this does the same for a folder whose
 * package.json names no main and that has no index.js. Type stripping runs
 * the file as Node would (`node index.ts`): ES module syntax makes it an ES
 * module; types are not checked (`tsc --noEmit` does), and syntax that needs
 * transforming (enums, namespaces, parameter properties) is refused.
 */
function typescriptIndex(entry) {
  const file = (name) => existsSync(path.join(entry, name));
  if (!file("index.ts") || file("index.js")) return entry;
  let main;
  try {
    main = JSON.parse(readFileSync(path.join(entry, "package.json"), "utf8")).main;
  } catch {
    main = undefined;
  }
  return main ? entry : path.join(entry, "index.ts");
}

let entry;
let languageServer;
/** The SDK's language server, loaded when a program is run: a host that only runs a policy pack (RunPlugin) starts without it. */
function server() {
  if (!languageServer) {
    const { LanguageServer } = load("@pulumi/pulumi/automation/server.js");
    // The program's exports become the stack's outputs.
    languageServer = new LanguageServer(async () => fromProject(entry));
  }
  return languageServer;
}

const service = {
  getRequiredPlugins: (call, callback) => server().getRequiredPlugins(call, callback),
  getPluginInfo: (call, callback) => server().getPluginInfo(call, callback),
  run: (call, callback) => {
    const request = call.request;
    entry = entryOf(request);
    if (request.getPwd()) process.chdir(request.getPwd());
    // The shared language server reads the engine's address from the first argument.
    const args = [engineAddress, ...request.getArgsList()];
    const proxied = Object.create(request, { getArgsList: { value: () => args } });
    return server().run({ ...call, request: proxied }, callback);
  },
};

// The clone this host came from: bootstrap exports it, and copies this file
// to .cache/pulumi/<version>/bin, four folders below it.
const generator = path.join(process.env.AICP_ROOT || path.resolve(__dirname, "../../../.."), "tools/sdkgen/generate.sh");

/** Pipes one GenerateProgram request through the Go generator; the answer is its response. */
function generateProgram(call, callback) {
  if (!existsSync(generator)) {
    callback({ code: grpc.status.UNIMPLEMENTED, details: `pulumi-language-nodejs: cannot write TypeScript without ${generator} (set AICP_ROOT to the clone)` });
    return;
  }
  const child = spawn("bash", [generator, "--program", "nodejs"], { stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  const err = [];
  let answered = false;
  const answer = (error, response) => {
    if (answered) return;
    answered = true;
    callback(error, response);
  };
  child.stdout.on("data", (chunk) => out.push(chunk));
  child.stderr.on("data", (chunk) => err.push(chunk));
  // A generator that exits before reading the request (no Go, a failed build) closes the pipe:
  // its exit and message, below, say why; the broken pipe must not end the host.
  child.stdin.on("error", () => {});
  child.on("error", (error) => answer({ code: grpc.status.INTERNAL, details: `pulumi-language-nodejs: ${error.message}` }));
  child.on("close", (code) => {
    if (code !== 0) {
      answer({ code: grpc.status.INTERNAL, details: `pulumi-language-nodejs: generating TypeScript failed: ${Buffer.concat(err).toString().trim()}` });
      return;
    }
    answer(null, langproto.GenerateProgramResponse.deserializeBinary(new Uint8Array(Buffer.concat(out))));
  });
  child.stdin.end(Buffer.from(call.request.serializeBinary()));
}
service.generateProgram = generateProgram;

/**
 * RunPlugin: how the engine runs a nodejs policy pack (`pulumi preview
 * --policy-pack DIR`, kind "analyzer") and a nodejs plugin. As the real host
 * does: node runs @pulumi/pulumi's run-policy-pack (run-plugin for other
 * kinds) resolved from the pack's folder; a policy pack gets the engine's
 * arguments and then its folder, and runs in it. Its output streams back to
 * the engine, which reads the analyzer's port from the first line; the exit
 * code ends the stream.
 */
function runPlugin(call) {
  const request = call.request;
  const dir = request.getInfo().getProgramDirectory();
  const analyzer = request.getKind() === "analyzer";
  let runPath;
  try {
    runPath = createRequire(path.join(dir, "package.json")).resolve(analyzer ? "@pulumi/pulumi/cmd/run-policy-pack" : "@pulumi/pulumi/cmd/run-plugin");
  } catch {
    call.emit("error", { code: grpc.status.FAILED_PRECONDITION, details: `no @pulumi/pulumi above ${dir}: run npm install where the plugin is` });
    return;
  }
  const args = analyzer ? [runPath, ...request.getArgsList(), dir] : [runPath, dir, ...request.getArgsList()];
  const env = { ...process.env, ...Object.fromEntries(request.getEnvList().map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])) };
  const child = spawn(process.execPath, args, { cwd: analyzer ? dir : request.getPwd() || dir, env, stdio: ["ignore", "pipe", "pipe"] });
  const send = (set, value) => call.write(set(new langproto.RunPluginResponse(), value));
  child.stdout.on("data", (chunk) => send((r, v) => r.setStdout(v), new Uint8Array(chunk)));
  child.stderr.on("data", (chunk) => send((r, v) => r.setStderr(v), new Uint8Array(chunk)));
  child.on("close", (code) => {
    send((r, v) => r.setExitcode(v), code ?? 1);
    call.end();
  });
  call.on("cancelled", () => child.kill());
}
service.runPlugin = runPlugin;

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
