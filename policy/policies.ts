/**
 * The guardrails as CrossGuard policies (@pulumi/policy): one per rule of
 * policy/rules.ts, each configurable by the engine's `--policy-pack-config`
 * JSON under its name, with the team baseline as its defaults.
 */
import type { Policies, PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import { commitments, overBudget, summary, uncheckableBudget, type BudgetConfig, type Prices } from "./gpu-hours";
import {
  allowedImages,
  baseline,
  chargeModes,
  gpusOf,
  kindOf,
  maxGpus,
  maxLifetime,
  podTypes,
  stackGpus,
  templateIdOf,
  withTemplate,
  type NotebookProps,
  type RuleConfig,
} from "./rules";
import type { ReportedViolation } from "./runtime";
import { TemplateCatalogue } from "./templates";

/** Where the policies read the templates notebooks name: one catalogue per preview (the pack's process). */
type Catalogue = () => TemplateCatalogue;

/** A notebook's inputs with the GPUs of the template it names, when it names one and gives none (rules.ts templateIdOf). */
export async function readNotebook(props: NotebookProps, catalogue: Catalogue): Promise<NotebookProps> {
  const id = templateIdOf(props);
  return id === undefined ? props : withTemplate(props, await catalogue().answer(id));
}

// @pulumi/policy's error for an input read in a preview that is not known yet (its internal module; the class is not declared).
const { UnknownValueError } = require("@pulumi/policy/proxy") as { UnknownValueError: new () => Error };

/**
 * The inputs the stack's rules read, copied one by one out of the wrapper
 * @pulumi/policy hands them in: in a preview, reading an input not known yet
 * throws, which would stop the rule for every notebook; such an input is left
 * out and named (notKnown), and the rules count what it decides as not known.
 */
export function plainInputs(props: Record<string, unknown>): NotebookProps {
  const notKnown: string[] = [];
  const read = (path: string, get: () => unknown): unknown => {
    try {
      return get();
    } catch (error) {
      if (!(error instanceof UnknownValueError)) throw error;
      notKnown.push(path);
      return undefined;
    }
  };
  const specs = read("replicaSpecs", () => props.replicaSpecs) as Record<string, unknown> | undefined;
  const plain: NotebookProps = {};
  if (specs && typeof specs === "object") {
    const copy: Record<string, unknown> = {};
    for (const key of ["customGpu", "customGpuList", "replicas", "specs", "customGpuName", "templateId"]) {
      // Of a list, only its length counts (an id in it may not be known yet).
      const value = read(`replicaSpecs.${key}`, () => (Array.isArray(specs[key]) ? new Array((specs[key] as unknown[]).length).fill("") : specs[key]));
      if (value !== undefined) copy[key] = value;
    }
    plain.replicaSpecs = copy;
  }
  for (const key of ["desiredState", "stopTime", "autoDeleteTime", "image", "imageType", "chargeMode", "duration", "autoRenew", "nextChargeMode"] as const) {
    const value = read(key, () => props[key]);
    if (value !== undefined) plain[key] = value;
  }
  return notKnown.length > 0 ? { ...plain, notKnown } : plain;
}

/** A configuration property of the schema, its default the baseline's. */
function setting<K extends keyof RuleConfig>(key: K, description: string): PolicyConfigSchema["properties"] {
  const value = baseline[key];
  const type = Array.isArray(value)
    ? { type: "array" as const, items: { type: "string" as const } }
    : typeof value === "boolean"
      ? { type: "boolean" as const }
      : { type: "number" as const };
  return { [key]: { ...type, default: value, description } };
}

/** A policy of one kind's resources, reading its configuration and reporting each message of `check`. */
function resourcePolicy(
  name: string,
  description: string,
  kind: "Notebook" | "ResourceGroup",
  configSchema: PolicyConfigSchema,
  check: (resource: string, props: Record<string, unknown>, config: RuleConfig) => string[],
  catalogue?: Catalogue,
): ResourceValidationPolicy {
  return {
    name,
    description,
    configSchema,
    validateResource: async (args, reportViolation) => {
      if (kindOf(args.type) !== kind) return;
      const props = catalogue ? await readNotebook(args.props, catalogue) : args.props;
      for (const message of check(args.name, props as Record<string, unknown>, { ...baseline, ...args.getConfig<Partial<RuleConfig>>() })) {
        reportViolation(message);
      }
    },
  };
}

/** The stack's notebooks, as the rules read them. */
const notebooksOf = (resources: Array<{ type: string; name: string; props: Record<string, unknown> }>, catalogue: Catalogue) =>
  Promise.all(
    resources.filter((r) => kindOf(r.type) === "Notebook").map(async (r) => ({ name: r.name, props: await readNotebook(plainInputs(r.props), catalogue) })),
  );

/** A notebook as the stack's rules read it. */
type ReadNotebook = { name: string; props: NotebookProps };

/**
 * A stack limit enforced on each notebook before its step. The engine asks
 * the pack about each resource as the program registers it, before it creates
 * or updates it, in a preview and in an `up` alike (with `--skip-preview`
 * too); it asks about the whole stack only after the update's steps, when
 * what a stack policy refuses has already been created. So the stack's rules
 * run on the notebooks registered so far in this command (the pack's process
 * lives for one command; by URN, so a notebook asked about twice counts
 * once), and a notebook is refused for what it adds to their verdict: a
 * message the stack did not have without it. The notebook whose step would
 * cross a limit is refused before its create or update is sent; those
 * registered before it, within the limit, go ahead. `standing` are refusals
 * of every notebook that holds GPUs whatever the others (a setting that makes
 * the rule uncheckable).
 */
function stackLimit(
  name: string,
  description: string,
  configSchema: PolicyConfigSchema,
  catalogue: Catalogue,
  verdict: (notebooks: ReadNotebook[], config: Record<string, unknown>, now: number) => string[],
  standing: (config: Record<string, unknown>) => string[] = () => [],
): ResourceValidationPolicy {
  const registered = new Map<string, ReadNotebook>();
  return {
    name,
    description,
    configSchema,
    validateResource: async (args, reportViolation) => {
      if (kindOf(args.type) !== "Notebook") return;
      const notebook = { name: args.name, props: await readNotebook(plainInputs(args.props), catalogue) };
      const config = args.getConfig<Record<string, unknown>>();
      const now = Date.now();
      const others = [...registered].filter(([urn]) => urn !== args.urn).map(([, read]) => read);
      registered.set(args.urn, notebook);
      const before = new Set(verdict(others, config, now));
      for (const message of verdict([...others, notebook], config, now)) if (!before.has(message)) reportViolation(message);
      if (gpusOf(notebook.props) > 0) for (const message of standing(config)) reportViolation(message);
    },
  };
}

const price = {
  pricePerGpuHour: {
    type: ["number" as const, "object" as const],
    additionalProperties: { type: "number" as const },
    description: "Price of one GPU-hour, for the estimated cost: one number, or one per GPU model (customGpuName) with `default` for the others.",
  },
};

const summaryName = "aicp-gpu-hours-summary";
const summaryDescription = "Reports the GPU-hours each notebook commits and the stack's total (and cost, with pricePerGpuHour).";

/** Every policy of the pack, in the order a preview reports them, reading templates from `catalogue`. */
export function guardrails(catalogue: Catalogue): Policies {
  return [
    resourcePolicy(
      "aicp-notebook-max-gpus",
      "A notebook holds at most maxGpusPerNotebook GPUs.",
      "Notebook",
      {
        properties: {
          ...setting("maxGpusPerNotebook", "GPUs one notebook may hold (customGpu, or its template's GPUs, times replicas)."),
          ...setting("allowUnknownGpus", "Let pass a notebook whose template's GPUs cannot be read from the platform (offline, or no settings)."),
        },
      },
      (name, props, config) => maxGpus(name, props, config),
      catalogue,
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
    stackLimit(
      "aicp-stack-max-gpus",
      "The stack's notebooks hold at most maxGpusPerStack GPUs together.",
      {
        properties: {
          ...setting("maxGpusPerStack", "GPUs all the stack's notebooks may hold together."),
          ...setting("allowUnknownGpus", "Count a notebook whose GPUs are not known (a template not read, an input not known in a preview) as none."),
        },
      },
      catalogue,
      (notebooks, config) => stackGpus(notebooks, { ...baseline, ...(config as Partial<RuleConfig>) }),
    ),
    stackLimit(
      "aicp-stack-budget",
      "The stack's GPU-hours (budgetGpuHours) or estimated cost (budgetCost at pricePerGpuHour) stay within budget; nothing unbounded.",
      {
        properties: {
          budgetGpuHours: { type: "number", description: "GPU-hours the stack may commit." },
          budgetCost: { type: "number", description: "Estimated cost the stack may commit, at pricePerGpuHour." },
          ...price,
        },
      },
      catalogue,
      (notebooks, config, now) => {
        const budget = config as BudgetConfig;
        const uncheckable = new Set(uncheckableBudget(budget));
        return overBudget(commitments(notebooks, now), budget).filter((message) => !uncheckable.has(message));
      },
      (config) => uncheckableBudget(config as BudgetConfig),
    ),
    {
      name: summaryName,
      description: summaryDescription,
      enforcementLevel: "advisory",
      configSchema: { properties: price },
      validateStack: async (args, reportViolation) => {
        const committed = commitments(await notebooksOf(args.resources, catalogue), Date.now());
        if (committed.some((c) => c.gpus > 0 || c.unknown !== undefined)) {
          const message = `${summaryDescription}\n${summary(committed, args.getConfig<{ pricePerGpuHour?: Prices }>().pricePerGpuHour)}`;
          // Advisory whatever level the engine sends (its `all` key sets every policy's): it informs, never blocks. Both
          // runtimes take a violation as an object with its own level (@pulumi/policy's server since 1.21, policy/runtime.ts);
          // @pulumi/policy's type does not declare that form.
          (reportViolation as unknown as (violation: ReportedViolation) => void)({ message, enforcementLevel: "advisory" });
        }
      },
    },
  ];
}

/** Reads each template once, with the settings where pulumi runs, when a notebook first names one. */
function catalogueOfThisProcess(): Catalogue {
  let catalogue: TemplateCatalogue | undefined;
  return () => (catalogue ??= new TemplateCatalogue(process.env));
}

/** The pack's policies (policy/index.ts). */
export const policies: Policies = guardrails(catalogueOfThisProcess());
