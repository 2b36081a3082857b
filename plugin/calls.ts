/**
 * What every call of the provider plugin's service (server.ts) shares: the
 * kind a URN names, a lifecycle operation run with its error tagged for the
 * engine, answers with their secrets marked, and a gRPC answer of a result or
 * an error (with a partly made object's id and state).
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { AicpError, asOneLine, redact } from "../client/errors";
import { kindDescriptions, type DescribedKind as Kind, type KindDescription } from "../client/wire";
import { reportedOperations } from "../provider/index";
import { anyProto, grpc, provider as proto, statusProto, toStruct } from "./grpc";
import { packageName } from "./schema";
import type { Bound } from "./timeouts";
import { secretPaths, withSecrets, withSecretsAt, type PropertyPath } from "./values";

export type Unary<Req, Res> = grpcTypes.handleUnaryCall<Req, Res>;

/** The kind a URN or type token names (`aicp:index:<Kind>`), or an error naming the token. */
export function kindOf(urnOrType: string): Kind {
  const type = urnOrType.includes("::") ? urnOrType.split("::")[2]!.split("$").pop()! : urnOrType;
  const name = type.startsWith(`${packageName}:index:`) ? type.slice(packageName.length + 7) : "";
  if (name in kindDescriptions) return name as Kind;
  throw new AicpError(
    "AICP_CONFIG",
    `pulumi-resource-${packageName} has no resource type '${type}'; install the plugin version your program's SDK was generated for`,
  );
}

/** Where the program marked its inputs secret: they stay secret, at the same places, in what the plugin answers. */
export function secretKeys(value: Record<string, unknown>): PropertyPath[] {
  return secretPaths(value);
}

/** The top-level properties holding a value the program marked, for the messages that show values (check-failures.ts). */
export const topKeysOf = (paths: readonly PropertyPath[]) => [...new Set(paths.map((path) => String(path[0])))];

/** Outputs as the engine records them: the kind's secret outputs, and whatever the program made secret, marked. */
export function answered(kind: Kind, outs: Record<string, unknown>, secretInputs: readonly PropertyPath[]): Record<string, unknown> {
  const { __provider: _, ...rest } = outs;
  return withSecrets(withSecretsAt(rest, secretInputs), (kindDescriptions[kind] as KindDescription).secretOutputs);
}

/** Runs `work` and answers the call with its result, or with its error as one line (and a partly made object's id and state). */
export function unary<Req, Res>(work: (request: Req) => Promise<Res>): Unary<Req, Res> {
  return (call, callback) => {
    work(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback(grpcError(error)),
    );
  };
}

/** A gRPC error for `error`; one that carries the id of an object it made (create-once.ts partlyCreated) tells the engine to record it. */
function grpcError(error: unknown): Partial<grpcTypes.StatusObject> {
  // An AicpError is redacted when built; any other error too may quote a secret the program marked.
  const message = redact(error instanceof AicpError ? asOneLine(error).message : error instanceof Error ? error.message : String(error));
  const metadata = new grpc.Metadata();
  const made = error as { id?: unknown; properties?: Record<string, unknown>; reasons?: string[]; kind?: Kind; secretInputs?: PropertyPath[] };
  if (typeof made.id === "string" && made.id !== "") {
    const detail = new proto.ErrorResourceInitFailed();
    detail.setId(made.id);
    detail.setProperties(toStruct(made.kind ? answered(made.kind, made.properties ?? {}, made.secretInputs ?? []) : (made.properties ?? {})));
    detail.setReasonsList(made.reasons ?? [message]);
    const any = new anyProto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusProto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/**
 * Runs a lifecycle operation of `kind`. An error that made an object is
 * tagged with the kind and the program's secret properties, so the state the
 * engine records from it keeps them secret (grpcError).
 */
export async function operation<T>(
  kind: Kind,
  run: (ops: ReturnType<typeof reportedOperations>) => Promise<T>,
  secretInputs: readonly PropertyPath[] = [],
  bound?: Bound,
): Promise<T> {
  try {
    return await run(reportedOperations(kind));
  } catch (error) {
    if (error !== null && typeof error === "object") {
      const made = error as { properties?: Record<string, unknown> };
      Object.assign(error, { kind, secretInputs, ...(made.properties && bound ? { properties: bound.recorded(made.properties) } : {}) });
    }
    throw error;
  }
}

/**
 * Inputs as the engine records them. The kind's secret fields (registry
 * credentials, envs) are secret whatever the program said: the TypeScript SDK
 * marks them itself, the generated SDKs and YAML do not. So is whatever the
 * program made secret.
 */
export function inputsAnswered(kind: Kind, inputs: Record<string, unknown>, secretInputs: readonly PropertyPath[]): Record<string, unknown> {
  return withSecrets(withSecretsAt(inputs, secretInputs), (kindDescriptions[kind] as KindDescription).secretOutputs);
}

/** The configuration source the client's settings read (`aicp:<key>`), from a provider instance's inputs. */
export function configSource(inputs: Record<string, unknown>): (key: string) => string | undefined {
  return (key) => {
    const value = inputs[key.startsWith(`${packageName}:`) ? key.slice(packageName.length + 1) : key];
    if (value === undefined || value === null || value === "") return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
}

export const notImplemented =
  (what: string): Unary<unknown, unknown> =>
  (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-${packageName}` });
