/**
 * The GPU-hours a stack commits, its estimated cost, and the budget rule
 * (policy/policies.ts aicp-stack-budget and aicp-gpu-hours-summary), from
 * the notebooks as the rules read them (policy/rules.ts).
 */
import { endsOf, gpusOf, hourInputs, notKnownAmong, unknownGpus, unreadableEnd, type NotebookProps } from "./rules";

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
    const hours = notKnownAmong(props, hourInputs) ?? unreadableEnd(props);
    const unknown = gpus ? { unknown: gpus, unknownWhat: "GPUs" as const } : hours ? { unknown: hours, unknownWhat: "GPU-hours" as const } : {};
    return { ...hoursOf(name, props, now), model, ...unknown };
  });
}

/**
 * A notebook's GPUs and the hours they are committed for (commitments): its
 * current period's, then a next period the program names as monthly
 * (nextChargeMode) one month more; a subscription that renews itself
 * (autoRenew) has no end.
 */
function hoursOf(name: string, props: NotebookProps, now: number): Omit<Commitment, "model"> {
  const current = currentPeriod(name, props, now);
  if (current.hours === undefined) return current;
  if (props.chargeMode === "monthly" && props.autoRenew === 1) return { ...current, hours: undefined, why: `${current.why}, renewed automatically` };
  if (props.nextChargeMode !== "monthly") return current;
  return { ...current, hours: current.hours + hoursPerMonth, why: `${current.why}, then a monthly subscription of ${hoursPerMonth} h` };
}

/** The GPUs and hours of the notebook's current period. */
function currentPeriod(name: string, props: NotebookProps, now: number): Omit<Commitment, "model"> {
  const gpus = gpusOf(props);
  if (props.chargeMode === "monthly") {
    const months = typeof props.duration === "number" ? props.duration : 1;
    return { name, gpus, hours: months * hoursPerMonth, why: `${months} month${months === 1 ? "" : "s"}` };
  }
  if ((props.desiredState ?? "Running") !== "Running") return { name, gpus, hours: 0, why: "kept Stopped" };
  const ends = endsOf(props);
  if (ends.length === 0) return { name, gpus, hours: undefined, why: "no stop or auto-delete time" };
  // An end that cannot be read is counted as not known (commitments), not from this NaN.
  const hours = Math.max(0, Math.round((Math.min(...ends.map((end) => end.at)) - now) / 3_600_000));
  return { name, gpus, hours, why: `until ${ends.length === 1 ? ends[0]!.value : "the earlier of its stop and auto-delete times"}` };
}

/** Price of a GPU-hour: one for every model, or one per model (`customGpuName`) with `default` for the others. */
export type Prices = number | Record<string, number>;

function priceOf(prices: Prices, model: string): number | undefined {
  if (typeof prices === "number") return prices;
  // Own keys only: a model named "constructor" is priced as any other, not by what every object has.
  const own = (key: string) => (Object.hasOwn(prices, key) && typeof prices[key] === "number" ? prices[key] : undefined);
  return own(model) ?? own("default");
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

/** The budget's settings (policy/policies.ts aicp-stack-budget). */
export type BudgetConfig = { budgetGpuHours?: number; budgetCost?: number; pricePerGpuHour?: Prices };

/** Why the budget cannot be checked whatever the notebooks: a cost budget without a price. */
export function uncheckableBudget(config: BudgetConfig): string[] {
  return config.budgetCost !== undefined && config.pricePerGpuHour === undefined
    ? ["budgetCost is set without pricePerGpuHour, so the stack's cost cannot be counted: give aicp-stack-budget a pricePerGpuHour"]
    : [];
}

/** Over the budget: more GPU-hours than `budgetGpuHours`, a cost over `budgetCost`, or anything unbounded under a budget. */
export function overBudget(committed: Commitment[], config: BudgetConfig): string[] {
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
  found.push(...uncheckableBudget(config));
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
