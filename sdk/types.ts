/**
 * SDK types derived from the wire schemas: camelCase, every field accepting a
 * pulumi Input. Nothing here lists a field by hand; the schemas in
 * provider/client/wire are the single source of truth.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Camelized } from "../provider/client/case";
import type * as wire from "../provider/client/wire";

/** Every level of T accepts a pulumi Input. */
export type DeepInput<T> = T extends ReadonlyArray<infer E>
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** An object whose properties each accept Inputs at every level. */
export type InputsOf<T> = { [K in keyof T]: DeepInput<T[K]> };

/** The create-notebook body in camelCase, as spec 4.2 defines it. */
export type NotebookBody = Camelized<z.input<typeof wire.createNotebookRequest>>;
/** `replicaSpecs` of a notebook: replicas (default 1), specs (sku or node id), rgId, custom CPU/GPU/memory/disk fields, templateId. */
export type ReplicaSpecs = NotebookBody["replicaSpecs"];
/** One mounted file set: fileSet, mountPath, volumeType, fileType, quota (default 0), permission, owner. */
export type VolumeSpec = NonNullable<NotebookBody["volumeSpecs"]>[number];
/** Registry credentials for a custom image; username and password required when hasAuth is true. */
export type ImageSecret = NonNullable<NotebookBody["customImageSecret"]>;

/** A notebook as the platform returns it (spec 2.2), camelCase. */
export type NotebookInfo = Camelized<wire.Notebook>;
/** One server of a notebook (jupyter, code_server, rstudio, ssh…); `password` is secret. */
export type NotebookServer = NonNullable<NotebookInfo["servers"]>[number];
/** A resource template (spec 2.4), camelCase: cpu, memory, gpu, gpuName, rgId, rgNodeId, specType, tmpId, … */
export type ResourceTemplate = Camelized<wire.Template>;
/** A Kubernetes pod of a training job (spec 2.1); Kubernetes' own keys are kept. */
export type TrainingPod = Camelized<wire.Pod>;
/** One disk metric (spec 2.5): resultType, metricName, result. */
export type DiskMetric = Camelized<wire.Metric>;
