/**
 * The guardrails as CrossGuard policies (@pulumi/policy): one per rule of
 * policy/rules.ts, each configurable by the engine's `--policy-pack-config`
 * JSON under its name, with the team baseline as its defaults.
 */
import type { Policies, PolicyConfigSchema, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { allowedImages, baseline, chargeModes, kindOf, maxGpus, maxLifetime, podTypes, stackGpus, type NotebookProps, type RuleConfig } from "./rules";

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
    const notebooks = args.resources.filter((r) => kindOf(r.type) === "Notebook").map((r) => ({ name: r.name, props: r.props as NotebookProps }));
    for (const message of stackGpus(notebooks, { ...baseline, ...args.getConfig<Partial<RuleConfig>>() })) reportViolation(message);
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
];
