/**
 * pulumi-resource-aicp: the provider plugin's process. The engine starts it
 * (through the bin/pulumi-resource-aicp launcher), reads the port it prints
 * on its first line, and speaks Pulumi's provider protocol to it over gRPC
 * (server.ts). One process per provider instance. Run by hand with `doctor`,
 * it checks the configuration instead (docs/configuration.md, "First contact with the platform").
 */
import { grpc, providerService } from "./grpc";
import { providerServer } from "./server";
import { sendingAs } from "../client/user-agent";

async function main(): Promise<void> {
  // The lifecycles' requests say they come from the plugin (client/user-agent.ts).
  sendingAs("plugin");
  // The engine closes a plugin with SIGINT once it is done with it; the Ctrl-C of a user reaches the plugin as Cancel.
  process.on("SIGINT", () => process.exit(0));
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerService.ResourceProviderService, providerServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  process.stdout.write(`${port}\n`);
}

// `pulumi-resource-aicp doctor [--stack <name>]`: the doctor for programs in every language, the same command as `npx pulumi-aicp doctor` (cli/index.ts).
if (process.argv[2] === "doctor") void import("../cli/index");
else
  main().catch((error: unknown) => {
    process.stderr.write(`pulumi-resource-aicp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
