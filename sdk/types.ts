/**
 * SDK types, camelCase, every field accepting a pulumi Input. The wire
 * schemas in client/wire are the single source of truth: the types
 * derived from them are spelled out in types.generated.ts (see
 * sdk/wire-types.ts), so the published declarations name no zod type.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NotebookBody, NotebookInfo, NotebookProviderFields } from "./types.generated";

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

/**
 * Every field of a Notebook a program sets, as the field table types it
 * (client/wire/notebook-fields.ts): the create request's, less those the
 * provider fills from configuration, and the provider's own.
 */
export type NotebookProgram = Omit<NotebookBody, "service" | "action" | "zone" | "owner"> & NotebookProviderFields;

/** The outputs whose recorded value is not the program's value as given, nor the platform's field as sent. */
interface NotebookOutputForms {
  uuid: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Without passwords (secrets.ts). */
  servers: NotebookServerSummary[] | undefined;
  /** The platform's form, over the program's. */
  replicaSpecs: NonNullable<NotebookInfo["replicaSpecs"]> & Partial<ReplicaSpecs>;
  volumeSpecs: Array<NonNullable<NotebookInfo["volumeSpecs"]>[number] & Partial<VolumeSpec>> | undefined;
  envs: NotebookInfo["envs"];
  /** As the platform spells them, which may be a value no program gives. */
  imageType: string;
  serverType: string;
  nextChargeMode: string | undefined;
  /** A keyed digest of the password, never the password. */
  customImageSecret: (Omit<ImageSecret, "password"> & { passwordDigest?: string }) | undefined;
  /** What a refresh observed (`Failed`) besides what a program asks. */
  desiredState: "Running" | "Stopped" | "Failed" | undefined;
}

/** The type of the Notebook's output `K` (sdk/notebook.generated.ts): its recorded form, else the program's type, else the platform's. */
export type NotebookOutputValue<K extends string> = K extends keyof NotebookOutputForms
  ? NotebookOutputForms[K]
  : K extends keyof NotebookProgram
    ? NotebookProgram[K]
    : K extends keyof NotebookInfo
      ? NonNullable<NotebookInfo[K]> | undefined
      : never;
