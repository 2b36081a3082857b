/**
 * The guardrails as CrossGuard policies (@pulumi/policy): one per rule of
 * policy/rules.ts, each configurable by the engine's `--policy-pack-config`
 * JSON under its name, with the team baseline as its defaults.
 */
import type { Policies, PolicyConfigSchema, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import {
  allowedImages,
  baseline,
  chargeModes,
  commitments,
  kindOf,
  maxGpus,
  maxLifetime,
  overBudget,
  podTypes,
  stackGpus,
  summary,
  type NotebookProps,
  type Prices,
  type RuleConfig,
} from "./rules";

/** A configuration property of the schema, its default the baseline's. */
function setting<K extends keyof RuleConfig>(key: K, description: string): PolicyConfigSchema["properties"] {
  const value = baseline[key];
  const type = Array.isArray(value) ? { type: "array" as const, items: { type: "string" as const } } : { type: "number" as const };
  return { [key]: { ...type, default: value, description } };
}

/** A policy of one kind's resources, reading its configuration and reporting each message of `check`. */
function resourcePolicy(
  name: string,
  description: string,
  kind: "Notebook" | "ResourceGroup",
  configSchema: PolicyConfigSchema,
  check: (resource: string, props: Record<string, unknown>, config: RuleConfig) => string[],
): ResourceValidationPolicy {
  return {
    name,
    description,
    configSchema,
    validateResource: (args, reportViolation) => {
      if (kindOf(args.type) !== kind) return;
      for (const message of check(args.name, args.props, { ...baseline, ...args.getConfig<Partial<RuleConfig>>() })) reportViolation(message);
    },
  };
}

const stackMaxGpus: StackValidationPolicy = {
  name: "aicp-stack-max-gpus",
  description: "The stack's notebooks hold at most maxGpusPerStack GPUs together.",
  configSchema: { properties: setting("maxGpusPerStack", "GPUs all the stack's notebooks may hold together.") },
  validateStack: (args, reportViolation) => {
    for (const message of stackGpus(notebooksOf(args.resources), { ...baseline, ...args.getConfig<Partial<RuleConfig>>() })) reportViolation(message);
  },
};

/** The stack's notebooks, as the rules read them. */
const notebooksOf = (resources: Array<{ type: string; name: string; props: Record<string, unknown> }>) =>
  resources.filter((r) => kindOf(r.type) === "Notebook").map((r) => ({ name: r.name, props: r.props as NotebookProps }));

const price = {
  pricePerGpuHour: {
    type: ["number" as const, "object" as const],
    additionalProperties: { type: "number" as const },
    description: "Price of one GPU-hour, for the estimated cost: one number, or one per GPU model (customGpuName) with `default` for the others.",
  },
};

/** The GPU-hours each notebook commits and the stack's total, reported once per preview (advisory: it informs, never blocks). */
const gpuHoursSummary: StackValidationPolicy = {
  name: "aicp-gpu-hours-summary",
  description: "Reports the GPU-hours each notebook commits and the stack's total (and cost, with pricePerGpuHour).",
  enforcementLevel: "advisory",
  configSchema: { properties: price },
  validateStack: (args, reportViolation) => {
    const committed = commitments(notebooksOf(args.resources), Date.now());
    if (committed.some((c) => c.gpus > 0)) reportViolation(summary(committed, args.getConfig<{ pricePerGpuHour?: Prices }>().pricePerGpuHour));
  },
};

/** A stack budget in GPU-hours or money: mandatory when set. */
const stackBudget: StackValidationPolicy = {
  name: "aicp-stack-budget",
  description: "The stack's GPU-hours (budgetGpuHours) or estimated cost (budgetCost at pricePerGpuHour) stay within budget; nothing unbounded.",
  configSchema: {
    properties: {
      budgetGpuHours: { type: "number", description: "GPU-hours the stack may commit." },
      budgetCost: { type: "number", description: "Estimated cost the stack may commit, at pricePerGpuHour." },
      ...price,
    },
  },
  validateStack: (args, reportViolation) => {
    const config = args.getConfig<{ budgetGpuHours?: number; budgetCost?: number; pricePerGpuHour?: Prices }>();
    for (const message of overBudget(commitments(notebooksOf(args.resources), Date.now()), config)) reportViolation(message);
  },
};

/** Every policy of the pack, in the order a preview reports them. */
export const policies: Policies = [
  resourcePolicy(
    "aicp-notebook-max-gpus",
    "A notebook holds at most maxGpusPerNotebook GPUs.",
    "Notebook",
    { properties: setting("maxGpusPerNotebook", "GPUs one notebook may hold (customGpu times replicas).") },
    (name, props, config) => maxGpus(name, props, config),
  ),
  resourcePolicy(
    "aicp-notebook-max-lifetime",
    "A running notebook has a stopTime or autoDeleteTime within maxLifetimeHours.",
    "Notebook",
    { properties: setting("maxLifetimeHours", "Hours from the preview within which a running notebook must stop or be deleted.") },
    (name, props, config) => maxLifetime(name, props, config, Date.now()),
  ),
  resourcePolicy(
    "aicp-notebook-allowed-images",
    "A notebook's image starts with an allowed registry prefix, and its imageType is allowed.",
    "Notebook",
    {
      properties: {
        ...setting("allowedImagePrefixes", "Registry prefixes an image must start with; none allows every image."),
        ...setting("allowedImageTypes", "Image types allowed."),
      },
    },
    (name, props, config) => allowedImages(name, props, config),
  ),
  resourcePolicy(
    "aicp-notebook-charge-modes",
    "A notebook's chargeMode is allowed (no monthly subscription unless allowed), and a subscription is at most maxMonthlyDuration months.",
    "Notebook",
    {
      properties: {
        ...setting("allowedChargeModes", "Charge modes allowed."),
        ...setting("maxMonthlyDuration", "Months a monthly subscription may run."),
      },
    },
    (name, props, config) => chargeModes(name, props, config),
  ),
  resourcePolicy(
    "aicp-resource-group-pod-types",
    "A resource group takes only allowed podTypes.",
    "ResourceGroup",
    { properties: setting("allowedPodTypes", "Pod types a resource group may take.") },
    (name, props, config) => podTypes(name, props, config),
  ),
  stackMaxGpus,
  stackBudget,
  gpuHoursSummary,
];
