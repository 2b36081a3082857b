/**
 * The SDK's public types as the wire schemas define them (camelCase). Not
 * published as is: tools/sdk-types/generate.mjs spells each alias out into
 * sdk/types.generated.ts, which the SDK uses, so a program's compiler never
 * loads zod's declarations.
 */
import type { z } from "zod";
import type { Camelized } from "../client/case";
import type * as wire from "../client/wire";

/** The create-notebook body in camelCase, as platform-api A4.2 defines it. */
export type NotebookBody = Camelized<z.input<typeof wire.createNotebookRequest>>;
/** The Notebook's own fields of the provider (how it waits, what state it keeps, what it takes over), as a program gives them. */
export type NotebookProviderFields = wire.NotebookProviderFieldValues;
/** A notebook as the platform returns it (platform-api A2.2), camelCase. */
export type NotebookInfo = Camelized<wire.Notebook>;
/** A resource template (platform-api A2.4), camelCase: cpu, memory, gpu, gpuName, rgId, rgNodeId, specType, tmpId, … */
export type ResourceTemplate = Camelized<wire.Template>;
/** A Kubernetes pod of a training job (platform-api A2.1); Kubernetes' own keys are kept. */
export type TrainingPod = Camelized<wire.Pod>;
/** One disk metric (platform-api A2.5): resultType, metricName, result. */
export type DiskMetric = Camelized<wire.Metric>;
/** Filters of getNotebooks, as the list operation takes them. */
export type NotebookFilters = Camelized<z.input<typeof wire.listNotebooksQuery>>;
/** Filters of getResourceTemplates, as the list operation takes them. */
export type TemplateFilters = Camelized<z.input<typeof wire.listTemplatesQuery>>;
