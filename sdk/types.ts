/**
 * SDK types, camelCase, every field accepting a pulumi Input. The wire
 * schemas in provider/client/wire are the single source of truth: the types
 * derived from them are spelled out in types.generated.ts (see
 * sdk/wire-types.ts), so the published declarations name no zod type.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NotebookBody, NotebookInfo } from "./types.generated";

export type { DiskMetric, NotebookBody, NotebookInfo, ResourceTemplate, TrainingPod } from "./types.generated";

/** Every level of T accepts a pulumi Input. */
export type DeepInput<T> = T extends ReadonlyArray<infer E>
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** An object whose properties each accept Inputs at every level. */
export type InputsOf<T> = { [K in keyof T]: DeepInput<T[K]> };

/** `replicaSpecs` of a notebook: replicas (default 1), specs (sku or node id), rgId, custom CPU/GPU/memory/disk fields, templateId. */
export type ReplicaSpecs = NotebookBody["replicaSpecs"];
/** One mounted file set: fileSet, mountPath, volumeType, fileType, quota (default 0), permission, owner. */
export type VolumeSpec = NonNullable<NotebookBody["volumeSpecs"]>[number];
/** Registry credentials for a custom image; username and password required when hasAuth is true. */
export type ImageSecret = NonNullable<NotebookBody["customImageSecret"]>;
/** One server of a notebook (jupyter, code_server, rstudio, ssh…); `password` is secret. */
export type NotebookServer = NonNullable<NotebookInfo["servers"]>[number];
