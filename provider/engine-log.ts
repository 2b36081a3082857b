/**
 * Warnings from the provider process to the engine, which prints them under
 * "Diagnostics" as it prints a program's `pulumi.log.warn`. The engine starts
 * the nodejs dynamic provider with the engine's address as its first argument
 * (see @pulumi/pulumi cmd/dynamic-provider), but the SDK's log functions look
 * for it only in a program's environment, so the provider sends the log
 * request itself. Anywhere else (a unit test) the warning goes to stderr.
 */
import { createRequire } from "node:module";
import { isSingleExecutable } from "../client/single-executable";
import { redact } from "../client/errors";

/** The engine's Log call, as the SDK's generated client exposes it. */
interface EngineClient {
  log(request: unknown, options: { deadline: number }, done: (error: Error | null) => void): void;
}

let engine: EngineClient | undefined;

/**
 * The engine address when this process is a provider the engine started (the
 * nodejs dynamic provider, or the plugin, plugin/main.ts, as a script or as
 * the single executable, whose second argument is its own path): its last
 * positional argument (logging and tracing flags, when the engine passes them,
 * come first).
 */
function engineAddress(): string | undefined {
  if (!isSingleExecutable() && !/dynamic-provider|plugin[\\/]main\.js$/.test(process.argv[1] ?? "")) return undefined;
  return process.argv
    .slice(2)
    .filter((arg) => !arg.startsWith("-"))
    .pop();
}

/** Sends a warning to the engine; never throws (a lost warning must not fail an operation). */
export async function warn(text: string): Promise<void> {
  // A warning may quote inputs: what the program marked secret is cut out (client/errors.ts redact).
  const message = redact(text);
  const address = engineAddress();
  try {
    if (!address) throw new Error("not started by the engine");
    // Resolved next to the SDK, so the engine client is the one the SDK was built with.
    const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));
    const proto = fromSdk("@pulumi/pulumi/proto/engine_pb");
    if (!engine) {
      const grpc = fromSdk("@grpc/grpc-js");
      const rpc = fromSdk("@pulumi/pulumi/proto/engine_grpc_pb");
      engine = new rpc.EngineClient(address, grpc.credentials.createInsecure()) as EngineClient;
    }
    const request = new proto.LogRequest();
    request.setSeverity(proto.LogSeverity.WARNING);
    request.setMessage(message);
    await new Promise<void>((resolve, reject) => engine!.log(request, { deadline: Date.now() + 5000 }, (error) => (error ? reject(error) : resolve())));
  } catch {
    console.error(`warning: ${message}`);
  }
}
