/**
 * SDK types, camelCase, every field accepting a pulumi Input. The wire
 * schemas in client/wire are the single source of truth: the types
 * derived from them are spelled out in types.generated.ts (see
 * sdk/wire-types.ts), so the published declarations name no zod type.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NotebookBody, NotebookInfo } from "./types.generated";

export type { DiskMetric, NotebookBody, NotebookInfo, ResourceTemplate, TrainingPod } from "./types.generated";

/**
 * Every level of T accepts a pulumi Input. One Input of the whole union, so
 * an optional field takes an `Output<number | undefined>` as well as a number.
 */
export type DeepInput<T> = pulumi.Input<InputLevels<T>>;

/** T with each array item and object property accepting an Input. */
type InputLevels<T> = T extends ReadonlyArray<infer E> ? DeepInput<E>[] : T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T;

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
/**
 * A server as the Notebook resource keeps it: every field but `password`.
 * Not `Omit<NotebookServer, "password">`: over a type that also admits
 * unknown keys, Omit keeps only those and drops every named field.
 */
export type NotebookServerSummary = { [K in keyof NotebookServer as K extends "password" ? never : K]: NotebookServer[K] };
