/**
 * The gRPC and protobuf modules the plugin speaks through, loaded from where
 * @pulumi/pulumi has them (its dependencies, which npm need not hoist beside
 * ours), with the provider service definitions @pulumi/pulumi ships.
 */
import { createRequire } from "node:module";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));

export const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
export const structProto = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof import("google-protobuf/google/protobuf/struct_pb");
export const emptyProto = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof import("google-protobuf/google/protobuf/empty_pb");
export const anyProto = fromPulumi("google-protobuf/google/protobuf/any_pb") as typeof import("google-protobuf/google/protobuf/any_pb");
export * as provider from "@pulumi/pulumi/proto/provider_pb";
export * as providerService from "@pulumi/pulumi/proto/provider_grpc_pb";
export * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
export * as statusProto from "@pulumi/pulumi/proto/status_pb";

/** A protobuf Struct as plain JSON (an absent one as an empty object). */
export function toJson(struct: { toJavaScript(): Record<string, unknown> } | undefined): Record<string, unknown> {
  return struct ? struct.toJavaScript() : {};
}

/** Plain JSON as a protobuf Struct; undefined fields are left out (a Struct has no undefined). */
export function toStruct(value: Record<string, unknown>): import("google-protobuf/google/protobuf/struct_pb").Struct {
  return structProto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)) as Record<string, never>);
}
