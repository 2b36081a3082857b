/**
 * The provider plugin as the engine reaches it, started in the test's own
 * process: a fresh copy of its modules (what a new `pulumi-resource-aicp`
 * process holds: nothing in memory from the run before) serving Pulumi's
 * resource provider protocol on a real gRPC port, and a gRPC client speaking
 * to it as the engine does. Only the process boundary is left out: what
 * crosses the wire is serialized and parsed exactly as over the engine's
 * connection.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { vi } from "vitest";
import type * as grpcTypes from "@grpc/grpc-js";
import type { Timings } from "../../../provider/timing";

type GrpcModule = typeof import("../../../plugin/grpc");
export type Proto = GrpcModule["provider"];

/** What a failed call said: its message and, when the provider made an object, what the engine records of it. */
export interface CallFailure {
  message: string;
  /** ErrorResourceInitFailed: the object exists with this id and state, and its operation failed. */
  initFailed?: { id: string; properties: Record<string, unknown>; reasons: string[] };
}

export class ProviderCallError extends Error {
  constructor(
    readonly method: string,
    readonly failure: CallFailure,
  ) {
    super(failure.message);
  }
}

/** One running plugin: call(method, request) as the engine sends it. */
export interface PluginProcess {
  readonly proto: Proto;
  readonly grpc: GrpcModule;
  call<Res>(method: string, request: unknown): Promise<Res>;
  close(): Promise<void>;
  /**
   * What kill -9 leaves of it: its port closes at once, so the calls in
   * flight end with no answer, and its waits end (provider/cancellation.ts),
   * so it polls no more. Requests it already sent still reach the platform;
   * unlike a killed process, this copy still reads their answers (a create's
   * id may reach the create journal).
   */
  kill(): void;
}

/**
 * Starts the plugin from fresh module copies with `timings` (provider/timing.ts)
 * in force, as an engine-started plugin process would run with its environment.
 */
export async function startPlugin(timings: Partial<Timings> = {}): Promise<PluginProcess> {
  vi.resetModules();
  (await import("../../../provider/timing")).useTimings(timings);
  const grpcModule = await import("../../../plugin/grpc");
  const { providerServer } = await import("../../../plugin/server");
  const { cancelNow } = await import("../../../provider/cancellation");
  const { grpc, providerService } = grpcModule;
  const server = new grpc.Server();
  server.addService(providerService.ResourceProviderService, providerServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const client = new providerService.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as Record<
    string,
    (request: unknown, done: (error: grpcTypes.ServiceError | null, response: unknown) => void) => void
  >;
  return {
    proto: grpcModule.provider,
    grpc: grpcModule,
    call: <Res>(method: string, request: unknown) =>
      new Promise<Res>((resolve, reject) => {
        client[method]!.call(client, request, (error, response) =>
          error ? reject(new ProviderCallError(method, failureOf(grpcModule, error))) : resolve(response as Res),
        );
      }),
    close: async () => {
      (client as unknown as grpcTypes.Client).close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
    kill: () => {
      // The port first: the calls in flight must end before a cancelled wait could answer them.
      server.forceShutdown();
      (client as unknown as grpcTypes.Client).close();
      journalAsKilled();
      cancelNow();
    },
  };
}

/**
 * What a kill leaves on the runner's disk is the create journal as it was at that moment: this copy
 * goes on after its waits are cancelled and may settle its entries (a killed process never returns).
 * So the journal is copied as it stands into a folder of its own, and the next plugin, which reads
 * its folder from the environment when it starts (provider/create-journal.ts), uses the copy.
 */
function journalAsKilled(): void {
  const dir = process.env.AICP_CREATE_JOURNAL_DIR;
  if (!dir || !existsSync(dir)) return;
  const copy = mkdtempSync(join(dir, "after-kill-"));
  for (const entry of readdirSync(dir)) if (entry.endsWith(".json")) copyFileSync(join(dir, entry), join(copy, entry));
  process.env.AICP_CREATE_JOURNAL_DIR = copy;
}

/** The error's message and, from its status details, an ErrorResourceInitFailed (the engine's reading, plugin/server.ts grpcError). */
function failureOf(grpcModule: GrpcModule, error: grpcTypes.ServiceError): CallFailure {
  const failure: CallFailure = { message: error.details };
  const [bytes] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!(bytes instanceof Buffer)) return failure;
  const status = grpcModule.statusProto.Status.deserializeBinary(new Uint8Array(bytes));
  for (const detail of status.getDetailsList()) {
    if (!detail.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed")) continue;
    const made = grpcModule.provider.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
    failure.initFailed = { id: made.getId(), properties: grpcModule.toJson(made.getProperties()), reasons: made.getReasonsList() };
  }
  return failure;
}
