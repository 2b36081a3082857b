/**
 * The guardrails' rules, as plain functions of a resource's inputs and the
 * rule's configuration (policy/index.ts makes them a CrossGuard policy pack).
 * Both fronts are read alike: the TypeScript package's dynamic resources
 * (`pulumi-nodejs:dynamic/aicp:Notebook`) and the plugin's
 * (`aicp:index:Notebook`) carry the same camelCase inputs. Each message names
 * the resource, the property, the value and the rule. A time without a zone is
 * read as UTC (client/times.ts instantOf): the pack does not know the
 * platform's zone, and for one east of UTC (CoresHub's) that reading is the
 * later one, so no lifetime or GPU-hour is under-counted.
 */
import { instantOf } from "../client/times";

/** The kinds the rules read, by resource type on either front. */
export function kindOf(type: string): "Notebook" | "ResourceGroup" | undefined {
  for (const kind of ["Notebook", "ResourceGroup"] as const) {
    if (type === `aicp:index:${kind}` || type === `pulumi-nodejs:dynamic/aicp:${kind}`) return kind;
  }
  return undefined;
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
  /** What the platform said of the template the notebook names (withTemplate). */
  template?: { id: number } & TemplateAnswer;
  /** Inputs not known yet (a preview), by path: the stack's rules count what they decide as not known (policies.ts plainInputs). */
  notKnown?: string[];
}

/** The inputs that decide a notebook's GPUs, and those that decide its hours. */
const gpuInputs = ["replicaSpecs", "replicaSpecs.customGpu", "replicaSpecs.customGpuList", "replicaSpecs.replicas", "replicaSpecs.templateId"];
const hourInputs = ["chargeMode", "duration", "desiredState", "stopTime", "autoDeleteTime"];

/** Why some of `paths` are not known: the inputs of `props` among them that a preview does not know yet. */
function notKnownAmong(props: NotebookProps, paths: string[]): string | undefined {
  const missing = (props.notKnown ?? []).filter((p) => paths.includes(p));
  return missing.length > 0 ? `${missing.join(", ")} not known until the update` : undefined;
}

/** What the platform says of a resource template (policy/templates.ts reads it): its GPUs and model, or why they are not known. */
export type TemplateAnswer = { gpus: number; model: string } | { unknown: string };

/**
 * The template whose GPUs a notebook holds: the `templateId` of a notebook
 * that gives neither `customGpu` nor `customGpuList`, since the platform
 * fills the custom values a create leaves out from the template it names
 * (docs/platform-api.md, A4.2 replica_specs).
 */
export function templateIdOf(props: NotebookProps): number | undefined {
  const specs = props.replicaSpecs ?? {};
  if (specs.customGpu !== undefined || specs.customGpuList !== undefined || typeof specs.templateId !== "number") return undefined;
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

/** The GPUs of one replica: `customGpu`, the ids of `customGpuList`, or the named template's (0 while it is not known). */
function perReplica(props: NotebookProps): number {
  const specs = props.replicaSpecs ?? {};
  if (typeof specs.customGpu === "number") return specs.customGpu;
  if (Array.isArray(specs.customGpuList)) return specs.customGpuList.length;
  return props.template && "gpus" in props.template ? props.template.gpus : 0;
}

/** The GPUs a notebook holds: those of one replica (perReplica) for each replica. */
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
        `to ${config.maxGpusPerNotebook} (maxGpusPerNotebook); give customGpu, or set allowUnknownGpus`,
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
  const ends = (["stopTime", "autoDeleteTime"] as const).filter((key) => typeof props[key] === "string" && props[key] !== "");
  const limit = `${config.maxLifetimeHours} hours (maxLifetimeHours)`;
  if (ends.length === 0) return [`Notebook '${name}': neither stopTime nor autoDeleteTime is set, so it runs until someone stops it; set one within ${limit}`];
  const earliest = Math.min(...ends.map((key) => instantOf(String(props[key]))));
  const hours = (earliest - now) / 3_600_000;
  if (!(hours > config.maxLifetimeHours)) return [];
  const key = ends.find((k) => instantOf(String(props[k])) === earliest)!;
  return [`Notebook '${name}': ${key} ${String(props[key])} is ${Math.round(hours)} hours away, more than ${limit}`];
}

/**
 * An image outside the allowlist (registry prefixes; none configured allows
 * every image), or an image type not allowed. The message does not show the
 * image: a program may make it a secret (a private registry's path), and
 * @pulumi/policy hands a policy its secrets as plain values, so the folder
 * form of the pack could not hide it (README "Guardrails").
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
    if (why) found.push(`the stack's GPUs cannot be counted: those of ${n.name} are not known (${why}); give customGpu, or set allowUnknownGpus`);
  }
  const held = notebooks.map((n) => ({ name: n.name, gpus: gpusOf(n.props) })).filter((n) => n.gpus > 0);
  const total = held.reduce((sum, n) => sum + n.gpus, 0);
  if (total <= config.maxGpusPerStack) return found;
  const each = held.map((n) => `${n.name} ${n.gpus}`).join(", ");
  return [...found, `the stack's notebooks hold ${total} GPUs (${each}), more than the ${config.maxGpusPerStack} a stack may hold (maxGpusPerStack)`];
}

/** Hours in a month of a monthly subscription, for the GPU-hour estimate: 30 days. */
export const hoursPerMonth = 720;

/** What one notebook commits: its GPUs, and the hours until something ends it (undefined: nothing does). */
export interface Commitment {
  name: string;
  gpus: number;
  /** The GPU model the program names (`replicaSpecs.customGpuName`), for a price per model. */
  model: string;
  hours: number | undefined;
  why: string;
  /** Why the notebook's GPUs (or, with unknownWhat "GPU-hours", its hours) are not known. */
  unknown?: string;
  unknownWhat?: "GPUs" | "GPU-hours";
}

/**
 * The GPU-hours each notebook commits, from `now`: a monthly subscription
 * its months; a running notebook until its earliest stop or auto-delete
 * time, or unbounded; a notebook kept Stopped none.
 */
export function commitments(notebooks: Array<{ name: string; props: NotebookProps }>, now: number): Commitment[] {
  return notebooks.map(({ name, props }) => {
    const named = props.replicaSpecs?.customGpuName;
    const model = typeof named === "string" ? named : props.template && "model" in props.template ? props.template.model : "";
    const gpus = unknownGpus(props);
    const hours = notKnownAmong(props, hourInputs);
    const unknown = gpus ? { unknown: gpus, unknownWhat: "GPUs" as const } : hours ? { unknown: hours, unknownWhat: "GPU-hours" as const } : {};
    return { ...hoursOf(name, props, now), model, ...unknown };
  });
}

/** A notebook's GPUs and the hours they are committed for (commitments). */
function hoursOf(name: string, props: NotebookProps, now: number): Omit<Commitment, "model"> {
  const gpus = gpusOf(props);
  if (props.chargeMode === "monthly") {
    const months = typeof props.duration === "number" ? props.duration : 1;
    return { name, gpus, hours: months * hoursPerMonth, why: `${months} month${months === 1 ? "" : "s"}` };
  }
  if ((props.desiredState ?? "Running") !== "Running") return { name, gpus, hours: 0, why: "kept Stopped" };
  const ends = (["stopTime", "autoDeleteTime"] as const).map((key) => props[key]).filter((t): t is string => typeof t === "string" && t !== "");
  if (ends.length === 0) return { name, gpus, hours: undefined, why: "no stop or auto-delete time" };
  const hours = Math.max(0, Math.round((Math.min(...ends.map((t) => instantOf(t))) - now) / 3_600_000));
  return { name, gpus, hours, why: `until ${ends.length === 1 ? ends[0] : "the earlier of its stop and auto-delete times"}` };
}

/** Price of a GPU-hour: one for every model, or one per model (`customGpuName`) with `default` for the others. */
export type Prices = number | Record<string, number>;

function priceOf(prices: Prices, model: string): number | undefined {
  return typeof prices === "number" ? prices : (prices[model] ?? prices.default);
}

/** The estimated cost of what ends, and the notebooks whose model has no price. */
export function costOf(committed: Commitment[], prices: Prices): { cost: number; unpriced: string[] } {
  let cost = 0;
  const unpriced: string[] = [];
  for (const c of committed.filter((c) => c.gpus > 0 && c.hours !== undefined && c.unknown === undefined)) {
    const price = priceOf(prices, c.model);
    if (price === undefined) unpriced.push(c.name);
    else cost += c.gpus * c.hours! * price;
  }
  return { cost: Math.round(cost * 100) / 100, unpriced };
}

/** How the summary and the budget name the price: "2.5 per GPU-hour", or the table. */
function priceWords(prices: Prices): string {
  return typeof prices === "number" ? `${prices} per GPU-hour` : `the prices per GPU-hour ${JSON.stringify(prices)}`;
}

/** The stack's GPU-hours: the sum of what ends, and the notebooks nothing ends. */
export function totals(committed: Commitment[]): { gpuHours: number; unbounded: string[] } {
  const holding = committed.filter((c) => c.gpus > 0 && c.unknown === undefined);
  return {
    gpuHours: holding.reduce((sum, c) => sum + (c.hours === undefined ? 0 : c.gpus * c.hours), 0),
    unbounded: holding.filter((c) => c.hours === undefined).map((c) => c.name),
  };
}

/** The summary a preview prints: each notebook holding GPUs, then the stack's total, and the estimated cost at `pricePerGpuHour`. */
export function summary(committed: Commitment[], pricePerGpuHour?: Prices): string {
  // By name: the engine lists a stack's resources in the order they were registered, which varies from run to run.
  const holding = committed.filter((c) => c.gpus > 0 && c.unknown === undefined).sort((a, b) => a.name.localeCompare(b.name));
  const gpus = (n: number) => `${n} GPU${n === 1 ? "" : "s"}`;
  const lines = holding.map((c) =>
    c.hours === undefined
      ? `${c.name}: ${gpus(c.gpus)} x unbounded (${c.why})`
      : `${c.name}: ${gpus(c.gpus)} x ${c.hours} h = ${c.gpus * c.hours} GPU-hours (${c.why})`,
  );
  const { gpuHours, unbounded } = totals(committed);
  const priced = pricePerGpuHour === undefined ? undefined : costOf(committed, pricePerGpuHour);
  const missing = priced && priced.unpriced.length > 0 ? ` (no price for ${priced.unpriced.join(", ")})` : "";
  const cost = priced === undefined ? "" : `, about ${priced.cost} at ${priceWords(pricePerGpuHour!)}${missing}`;
  const open = unbounded.length > 0 ? ` plus unbounded (${unbounded.join(", ")})` : "";
  const unknown = committed.filter((c) => c.unknown !== undefined).map((c) => `${c.name}'s ${c.unknownWhat ?? "GPUs"} not known (${c.unknown})`);
  const notKnown = unknown.length > 0 ? `, plus ${unknown.join(", ")}` : "";
  const each = lines.length > 0 ? lines.join("; ") : "no notebook with known GPUs";
  return `GPU-hours of this stack: ${each}. Total ${gpuHours} GPU-hours${open}${cost}${notKnown}.`;
}

/** Over the budget: more GPU-hours than `budgetGpuHours`, a cost over `budgetCost`, or anything unbounded under a budget. */
export function overBudget(committed: Commitment[], config: { budgetGpuHours?: number; budgetCost?: number; pricePerGpuHour?: Prices }): string[] {
  const { gpuHours, unbounded } = totals(committed);
  const found: string[] = [];
  const hasBudget = config.budgetGpuHours !== undefined || config.budgetCost !== undefined;
  if (hasBudget && unbounded.length > 0) {
    found.push(
      `the stack's GPU-hours are unbounded: ${unbounded.join(", ")} ${unbounded.length === 1 ? "has" : "have"} no stop or auto-delete time, ` +
        "and a budget is set",
    );
  }
  for (const c of hasBudget ? committed.filter((c) => c.unknown !== undefined) : []) {
    found.push(`the ${c.unknownWhat ?? "GPUs"} of ${c.name} are not known (${c.unknown}), and a budget is set`);
  }
  if (config.budgetGpuHours !== undefined && gpuHours > config.budgetGpuHours) {
    found.push(`the stack commits ${gpuHours} GPU-hours, over the budget of ${config.budgetGpuHours} (budgetGpuHours)`);
  }
  if (config.budgetCost !== undefined && config.pricePerGpuHour !== undefined) {
    const { cost, unpriced } = costOf(committed, config.pricePerGpuHour);
    const at = priceWords(config.pricePerGpuHour);
    if (cost > config.budgetCost)
      found.push(`the stack's estimated cost ${cost} (${gpuHours} GPU-hours at ${at}) is over the budget of ${config.budgetCost} (budgetCost)`);
    if (unpriced.length > 0) {
      found.push(
        `no price for the GPUs of ${unpriced.join(", ")} under a cost budget: give their model (customGpuName) a price, or a default (pricePerGpuHour)`,
      );
    }
  }
  return found;
}
