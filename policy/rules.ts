/**
 * The guardrails' rules, as plain functions of a resource's inputs and the
 * rule's configuration (policy/policies.ts makes them CrossGuard policies;
 * the GPU-hours and the budget are in policy/gpu-hours.ts). Both fronts are read alike: the TypeScript package's dynamic resources
 * (`pulumi-nodejs:dynamic/aicp:Notebook`) and the plugin's
 * (`aicp:index:Notebook`) carry the same camelCase inputs. Each message names
 * the resource, the property, the value (never the image's) and the rule. A time without a zone is
 * read as UTC (client/times.ts instantOf): the pack does not know the
 * platform's zone, and for one east of UTC (CoresHub's) that reading is the
 * later one, so no lifetime or GPU-hour is under-counted.
 */
import { instantOf } from "../client/times";
import { kindDescriptions, type DescribedKind } from "../client/wire";

/** The kinds the rules read, by resource type on either front: the platform's kinds of the registry (client/wire/index.ts). */
export function kindOf(type: string): DescribedKind | undefined {
  return (Object.keys(kindDescriptions) as DescribedKind[]).find((kind) => type === `aicp:index:${kind}` || type === `pulumi-nodejs:dynamic/aicp:${kind}`);
}

/** A Notebook's inputs as a program gives them (only what the rules read). */
export interface NotebookProps {
  replicaSpecs?: {
    customGpu?: unknown;
    customGpuList?: unknown;
    replicas?: unknown;
    specs?: unknown;
    customGpuName?: unknown;
    templateId?: unknown;
  };
  desiredState?: unknown;
  stopTime?: unknown;
  autoDeleteTime?: unknown;
  image?: unknown;
  imageType?: unknown;
  chargeMode?: unknown;
  duration?: unknown;
  /** 1: a monthly subscription renews itself (docs/platform-api.md A4.2 auto_renew). */
  autoRenew?: unknown;
  /** The charge mode of the next period (A4.2 next_charge_mode). */
  nextChargeMode?: unknown;
  /** What the platform said of the template the notebook names (withTemplate). */
  template?: { id: number } & TemplateAnswer;
  /** Inputs not known yet (a preview), by path: the stack's rules count what they decide as not known (policies.ts plainInputs). */
  notKnown?: string[];
}

/** The inputs that decide a notebook's GPUs, and those that decide its hours. */
const gpuInputs = ["replicaSpecs", "replicaSpecs.customGpu", "replicaSpecs.customGpuList", "replicaSpecs.replicas", "replicaSpecs.templateId"];
export const hourInputs = ["chargeMode", "duration", "autoRenew", "nextChargeMode", "desiredState", "stopTime", "autoDeleteTime"];

/**
 * The inputs whose values a rule's message may show (policy/runtime.ts hides
 * the secrets among them; a secret elsewhere, such as an env, never reaches a
 * message). The image is read but never shown (allowedImages).
 */
export const shownInputs = ["replicaSpecs", "desiredState", "stopTime", "autoDeleteTime", "imageType", "chargeMode", "nextChargeMode", "duration", "podTypes"];

/** The stop and auto-delete times a notebook gives, with their instants (NaN: not a date-time the pack reads). */
export function endsOf(props: NotebookProps): Array<{ key: "stopTime" | "autoDeleteTime"; value: string; at: number }> {
  return (["stopTime", "autoDeleteTime"] as const)
    .filter((key) => typeof props[key] === "string" && props[key] !== "")
    .map((key) => ({ key, value: String(props[key]), at: instantOf(String(props[key])) }));
}

/** Why a notebook's end cannot be read: a stop or auto-delete time that is not a date-time (a zone no place uses, +15:00). */
export function unreadableEnd(props: NotebookProps): string | undefined {
  const odd = endsOf(props).find((end) => Number.isNaN(end.at));
  return odd ? `${odd.key} ${odd.value} is not a date-time` : undefined;
}

/** Why some of `paths` are not known: the inputs of `props` among them that a preview does not know yet. */
export function notKnownAmong(props: NotebookProps, paths: string[]): string | undefined {
  const missing = (props.notKnown ?? []).filter((p) => paths.includes(p));
  return missing.length > 0 ? `${missing.join(", ")} not known until the update` : undefined;
}

/**
 * What the platform says of a resource template (policy/templates.ts reads
 * it): its GPU count, how many GPU ids it lists, and its model; or why they
 * are not known.
 */
export type TemplateAnswer = { gpus: number; listed: number; model: string } | { unknown: string };

/**
 * The template that fills a notebook's GPUs: the `templateId` of a notebook
 * that leaves out `customGpu` or `customGpuList`, since the platform fills
 * each custom value a create leaves out from the template it names
 * (docs/platform-api.md, A4.2 replica_specs).
 */
export function templateIdOf(props: NotebookProps): number | undefined {
  const specs = props.replicaSpecs ?? {};
  if ((specs.customGpu !== undefined && specs.customGpuList !== undefined) || typeof specs.templateId !== "number") return undefined;
  return specs.templateId;
}

/** The notebook as the rules read it once the platform has answered for the template it names. */
export function withTemplate(props: NotebookProps, answer: TemplateAnswer): NotebookProps {
  const id = templateIdOf(props);
  // Not a copy: in a preview @pulumi/policy hands the inputs over wrapped so that reading a value not known yet
  // throws, and a copy would read them all; this reads through to the inputs only what a rule reads.
  return id === undefined ? props : Object.assign(Object.create(props) as NotebookProps, { template: { id, ...answer } });
}

const replicasOf = (props: NotebookProps) => (typeof props.replicaSpecs?.replicas === "number" ? props.replicaSpecs.replicas : 1);

/**
 * The GPUs of one replica, as the platform allocates them: its GPU count
 * (`customGpu`, else the template's) and its GPU ids (`customGpuList`, an
 * empty list too, else the template's), each filled from the template where
 * the program leaves it out. The platform does not say which of the two it
 * honours when they differ: the larger counts. 0 from a template not known
 * (unknownGpus says so).
 */
function perReplica(props: NotebookProps): number {
  const specs = props.replicaSpecs ?? {};
  const template = props.template && "gpus" in props.template ? props.template : undefined;
  const count = typeof specs.customGpu === "number" ? specs.customGpu : (template?.gpus ?? 0);
  const listed = Array.isArray(specs.customGpuList) ? specs.customGpuList.length : (template?.listed ?? 0);
  return Math.max(count, listed);
}

/**
 * The GPUs a notebook holds: those of one replica (perReplica) for each
 * replica. The one count of the pack: the per-notebook and per-stack rules,
 * the budget and the summary all read it.
 */
export function gpusOf(props: NotebookProps): number {
  return perReplica(props) * replicasOf(props);
}

/** Why a notebook's GPUs are not known: it names a template the platform did not describe, or an input that decides them is not known yet. */
export function unknownGpus(props: NotebookProps): string | undefined {
  if (props.template && "unknown" in props.template) return `template ${props.template.id}: ${props.template.unknown}`;
  return notKnownAmong(props, gpuInputs);
}

/** Configuration of each rule; every field has the team baseline as its default (defaults below). */
export interface RuleConfig {
  maxGpusPerNotebook: number;
  maxLifetimeHours: number;
  allowedImagePrefixes: string[];
  allowedImageTypes: string[];
  allowedChargeModes: string[];
  maxMonthlyDuration: number;
  allowedPodTypes: string[];
  maxGpusPerStack: number;
  /** Let a notebook whose template's GPUs the pack cannot read pass the GPUs-per-notebook rule. */
  allowUnknownGpus: boolean;
}

/** The team baseline the pack applies with no configuration: mandatory (policy/index.ts). */
export const baseline: RuleConfig = {
  maxGpusPerNotebook: 8,
  maxLifetimeHours: 7 * 24,
  allowedImagePrefixes: [],
  allowedImageTypes: ["official", "user", "custom"],
  allowedChargeModes: ["elastic"],
  maxMonthlyDuration: 1,
  allowedPodTypes: ["infer", "instance", "job"],
  maxGpusPerStack: 32,
  allowUnknownGpus: false,
};

const shown = (value: unknown) => JSON.stringify(value);

/** More GPUs than a notebook may hold. */
export function maxGpus(name: string, props: NotebookProps, config: Pick<RuleConfig, "maxGpusPerNotebook" | "allowUnknownGpus">): string[] {
  const unknown = props.template && "unknown" in props.template ? props.template : undefined;
  if (unknown && !config.allowUnknownGpus) {
    return [
      `Notebook '${name}': replicaSpecs names template ${unknown.id}, whose GPUs are not known (${unknown.unknown}), so its GPUs cannot be held ` +
        `to ${config.maxGpusPerNotebook} (maxGpusPerNotebook); give customGpu and customGpuList, or set allowUnknownGpus`,
    ];
  }
  const gpus = gpusOf(props);
  if (gpus <= config.maxGpusPerNotebook) return [];
  const from = props.template && "gpus" in props.template ? ` (template ${props.template.id}: ${props.template.gpus} per replica)` : "";
  return [`Notebook '${name}': replicaSpecs holds ${gpus} GPUs${from}, more than the ${config.maxGpusPerNotebook} a notebook may hold (maxGpusPerNotebook)`];
}

/**
 * A running notebook must end: a stop or auto-delete time no further than
 * `maxLifetimeHours` from `now`. A notebook kept Stopped holds no GPUs.
 */
export function maxLifetime(name: string, props: NotebookProps, config: Pick<RuleConfig, "maxLifetimeHours">, now: number): string[] {
  if ((props.desiredState ?? "Running") !== "Running") return [];
  const ends = endsOf(props);
  const limit = `${config.maxLifetimeHours} hours (maxLifetimeHours)`;
  if (ends.length === 0) return [`Notebook '${name}': neither stopTime nor autoDeleteTime is set, so it runs until someone stops it; set one within ${limit}`];
  // A time the pack cannot read could be the earliest: the lifetime is not known, which is not a pass.
  const odd = ends.find((end) => Number.isNaN(end.at));
  if (odd) {
    return [
      `Notebook '${name}': ${odd.key} ${odd.value} is not a date-time the pack can read, so its lifetime cannot be held to ${limit}; ` +
        "give a time such as 2026-12-31T18:00:00Z",
    ];
  }
  const earliest = ends.reduce((a, b) => (b.at < a.at ? b : a));
  const hours = (earliest.at - now) / 3_600_000;
  if (!(hours > config.maxLifetimeHours)) return [];
  return [`Notebook '${name}': ${earliest.key} ${earliest.value} is ${Math.round(hours)} hours away, more than ${limit}`];
}

/**
 * An image outside the allowlist (registry prefixes; none configured allows
 * every image), or an image type not allowed. The message does not show the
 * image: a program may make it a secret (a private registry's path), and
 * @pulumi/policy hands a policy its secrets as plain values, so the folder
 * form of the pack could not hide it (docs/guardrails.md).
 */
export function allowedImages(name: string, props: NotebookProps, config: Pick<RuleConfig, "allowedImagePrefixes" | "allowedImageTypes">): string[] {
  const found: string[] = [];
  const image = String(props.image ?? "");
  if (config.allowedImagePrefixes.length > 0 && !config.allowedImagePrefixes.some((prefix) => image.startsWith(prefix))) {
    found.push(`Notebook '${name}': image is outside the allowlist ${shown(config.allowedImagePrefixes)} (allowedImagePrefixes)`);
  }
  if (props.imageType !== undefined && !config.allowedImageTypes.includes(String(props.imageType))) {
    found.push(`Notebook '${name}': imageType ${shown(props.imageType)} is not one of ${shown(config.allowedImageTypes)} (allowedImageTypes)`);
  }
  return found;
}

/** A charge mode not allowed (a monthly subscription, by default), or a subscription longer than allowed. */
export function chargeModes(name: string, props: NotebookProps, config: Pick<RuleConfig, "allowedChargeModes" | "maxMonthlyDuration">): string[] {
  const mode = String(props.chargeMode ?? "");
  if (!config.allowedChargeModes.includes(mode)) {
    return [`Notebook '${name}': chargeMode ${shown(mode)} is not one of ${shown(config.allowedChargeModes)} (allowedChargeModes)`];
  }
  // The next period's mode is charged as the current one is.
  if (props.nextChargeMode !== undefined && !config.allowedChargeModes.includes(String(props.nextChargeMode))) {
    return [`Notebook '${name}': nextChargeMode ${shown(props.nextChargeMode)} is not one of ${shown(config.allowedChargeModes)} (allowedChargeModes)`];
  }
  if (mode === "monthly" && typeof props.duration === "number" && props.duration > config.maxMonthlyDuration) {
    return [`Notebook '${name}': duration ${props.duration} months is more than ${config.maxMonthlyDuration} (maxMonthlyDuration)`];
  }
  return [];
}

/** Pod types a resource group may not take. */
export function podTypes(name: string, props: { podTypes?: unknown }, config: Pick<RuleConfig, "allowedPodTypes">): string[] {
  const given = Array.isArray(props.podTypes) ? props.podTypes.map(String) : [];
  const refused = given.filter((t) => !config.allowedPodTypes.includes(t));
  if (refused.length === 0) return [];
  return [
    `ResourceGroup '${name}': podTypes ${shown(refused)} ${refused.length === 1 ? "is" : "are"} not allowed; ` +
      `allowed: ${shown(config.allowedPodTypes)} (allowedPodTypes)`,
  ];
}

/** More GPUs in the stack's notebooks than the stack may hold. */
export function stackGpus(
  notebooks: Array<{ name: string; props: NotebookProps }>,
  config: Pick<RuleConfig, "maxGpusPerStack"> & Partial<Pick<RuleConfig, "allowUnknownGpus">>,
): string[] {
  const found: string[] = [];
  for (const n of config.allowUnknownGpus ? [] : notebooks) {
    const why = unknownGpus(n.props);
    if (why)
      found.push(`the stack's GPUs cannot be counted: those of ${n.name} are not known (${why}); give customGpu and customGpuList, or set allowUnknownGpus`);
  }
  const held = notebooks.map((n) => ({ name: n.name, gpus: gpusOf(n.props) })).filter((n) => n.gpus > 0);
  const total = held.reduce((sum, n) => sum + n.gpus, 0);
  if (total <= config.maxGpusPerStack) return found;
  const each = held.map((n) => `${n.name} ${n.gpus}`).join(", ");
  return [...found, `the stack's notebooks hold ${total} GPUs (${each}), more than the ${config.maxGpusPerStack} a stack may hold (maxGpusPerStack)`];
}
