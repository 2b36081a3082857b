/**
 * The guardrails' rules (policy/rules.ts) and the policies made of them
 * (policy/policies.ts), called directly as CrossGuard calls them: each rule
 * at its baseline and configured, on both fronts' resource types. Expected
 * messages are written out by hand. Through the engine: test/e2e/policy.test.ts.
 */
import { readFileSync } from "node:fs";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { policies } from "../../policy/policies";
import { runPolicy } from "../support/policy-run";
import { commitments, overBudget, summary } from "../../policy/gpu-hours";
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
} from "../../policy/rules";

const now = Date.parse("2026-11-25T00:00:00Z");
const running = { chargeMode: "elastic", image: "registry.team/jupyter:1", imageType: "custom", replicaSpecs: { specs: "sku-1", customGpu: 1 } };

/** What a resource policy reports for one resource of `type` with `props` and `config`. */
async function reported(name: string, type: string, props: Record<string, unknown>, config: Record<string, unknown> = {}): Promise<string[]> {
  const policy = policies.find((p) => p.name === name) as ResourceValidationPolicy;
  const messages: string[] = [];
  const args = { type, props, name: "nb", urn: `urn:pulumi:ci::p::${type}::nb`, getConfig: () => config } as never;
  const validate = policy.validateResource as (args: never, report: (message: string) => void) => Promise<void>;
  await validate(args, (message: string) => messages.push(message));
  return messages;
}

describe("the guardrails' rules", () => {
  it("read both fronts' types", () => {
    expect(kindOf("aicp:index:Notebook")).toBe("Notebook");
    expect(kindOf("pulumi-nodejs:dynamic/aicp:Notebook")).toBe("Notebook");
    expect(kindOf("pulumi-nodejs:dynamic/aicp:ResourceGroup")).toBe("ResourceGroup");
    expect(kindOf("pulumi-nodejs:dynamic/aicp:StackMark")).toBeUndefined();
  });

  it("count GPUs per replica", () => {
    expect(gpusOf({ replicaSpecs: { customGpu: 2, replicas: 3 } })).toBe(6);
    expect(gpusOf({ replicaSpecs: { customGpuList: ["g1", "g2"] } })).toBe(2);
    expect(gpusOf({})).toBe(0);
  });

  it("refuse more GPUs than a notebook may hold, at the baseline and configured", async () => {
    expect(maxGpus("big", { replicaSpecs: { customGpu: 8 } }, baseline)).toEqual([]);
    expect(maxGpus("big", { replicaSpecs: { customGpu: 9 } }, baseline)).toEqual([
      "Notebook 'big': replicaSpecs holds 9 GPUs, more than the 8 a notebook may hold (maxGpusPerNotebook)",
    ]);
    expect(await reported("aicp-notebook-max-gpus", "aicp:index:Notebook", { replicaSpecs: { customGpu: 2 } }, { maxGpusPerNotebook: 1 })).toEqual([
      "Notebook 'nb': replicaSpecs holds 2 GPUs, more than the 1 a notebook may hold (maxGpusPerNotebook)",
    ]);
  });

  it("require a running notebook to end within the lifetime, and leave a stopped one alone", () => {
    expect(maxLifetime("endless", running, baseline, now)).toEqual([
      "Notebook 'endless': neither stopTime nor autoDeleteTime is set, so it runs until someone stops it; set one within 168 hours (maxLifetimeHours)",
    ]);
    expect(maxLifetime("far", { ...running, stopTime: "2026-12-25T00:00:00Z" }, baseline, now)).toEqual([
      "Notebook 'far': stopTime 2026-12-25T00:00:00Z is 720 hours away, more than 168 hours (maxLifetimeHours)",
    ]);
    expect(maxLifetime("near", { ...running, stopTime: "2026-12-25T00:00:00Z", autoDeleteTime: "2026-11-26T00:00:00Z" }, baseline, now)).toEqual([]);
    expect(maxLifetime("parked", { ...running, desiredState: "Stopped" }, baseline, now)).toEqual([]);
  });

  it("read a time without a zone as UTC, in either form the provider takes (the later reading for a platform east of UTC)", () => {
    expect(maxLifetime("bare", { ...running, stopTime: "2026-12-25 00:00:00" }, baseline, now)).toEqual([
      "Notebook 'bare': stopTime 2026-12-25 00:00:00 is 720 hours away, more than 168 hours (maxLifetimeHours)",
    ]);
    expect(commitments([{ name: "bare", props: { ...running, stopTime: "2026-11-25T10:00" } }], now)[0]!.hours).toBe(10);
    expect(commitments([{ name: "zoned", props: { ...running, stopTime: "2026-11-25T18:00:00+08:00" } }], now)[0]!.hours).toBe(10);
  });

  it("keep images to the allowlist when one is configured, and image types to those allowed", () => {
    expect(allowedImages("any", { image: "docker.io/x:1" }, baseline)).toEqual([]);
    expect(
      allowedImages("out", { image: "docker.io/x:1", imageType: "custom" }, { allowedImagePrefixes: ["registry.team/"], allowedImageTypes: ["official"] }),
    ).toEqual([
      // The image itself is not shown: it may be a secret (a private registry's path), which @pulumi/policy hands over as plain text.
      "Notebook 'out': image is outside the allowlist [\"registry.team/\"] (allowedImagePrefixes)",
      'Notebook \'out\': imageType "custom" is not one of ["official"] (allowedImageTypes)',
    ]);
  });

  it("refuse a monthly subscription by default, and one longer than allowed when monthly is allowed", () => {
    expect(chargeModes("sub", { chargeMode: "monthly", duration: 1 }, baseline)).toEqual([
      'Notebook \'sub\': chargeMode "monthly" is not one of ["elastic"] (allowedChargeModes)',
    ]);
    expect(chargeModes("sub", { chargeMode: "monthly", duration: 3 }, { allowedChargeModes: ["elastic", "monthly"], maxMonthlyDuration: 2 })).toEqual([
      "Notebook 'sub': duration 3 months is more than 2 (maxMonthlyDuration)",
    ]);
  });

  it("refuse resource-group pod types not allowed", async () => {
    expect(podTypes("pool", { podTypes: ["job", "infer"] }, { allowedPodTypes: ["job"] })).toEqual([
      'ResourceGroup \'pool\': podTypes ["infer"] is not allowed; allowed: ["job"] (allowedPodTypes)',
    ]);
    expect(await reported("aicp-resource-group-pod-types", "pulumi-nodejs:dynamic/aicp:ResourceGroup", { podTypes: ["job"] })).toEqual([]);
  });

  it("refuse more GPUs in a stack than it may hold", async () => {
    const notebooks = [
      { name: "a", props: { replicaSpecs: { customGpu: 4 } } },
      { name: "b", props: { replicaSpecs: { customGpu: 2, replicas: 2 } } },
      { name: "c", props: {} },
    ];
    expect(stackGpus(notebooks, { maxGpusPerStack: 7 })).toEqual([
      "the stack's notebooks hold 8 GPUs (a 4, b 4), more than the 7 a stack may hold (maxGpusPerStack)",
    ]);
    // The pack refuses the notebook whose step would cross the limit, before it is sent: b, not a (4 of 7) nor c (no GPUs).
    const stack = policies.find((p) => p.name === "aicp-stack-max-gpus")!;
    const resources = notebooks.map((n) => ({ type: "aicp:index:Notebook", name: n.name, props: n.props }));
    expect(await runPolicy(stack, resources, { maxGpusPerStack: 7 })).toEqual([
      { at: "b", message: "the stack's notebooks hold 8 GPUs (a 4, b 4), more than the 7 a stack may hold (maxGpusPerStack)" },
    ]);
  });

  it("count the GPU-hours of a known mix, with its cost, and refuse a budget below them", () => {
    const mix = [
      { name: "a", props: { ...running, stopTime: "2026-11-25T10:00:00Z" } },
      { name: "b", props: { ...running, autoDeleteTime: "2026-11-25T10:00:00Z" } },
      { name: "c", props: { ...running, replicaSpecs: { customGpu: 4 } } },
      { name: "d", props: { ...running, chargeMode: "monthly", duration: 1, replicaSpecs: { customGpu: 2 } } },
      { name: "cpu", props: { ...running, replicaSpecs: { customCpu: 4 } } },
    ];
    const committed = commitments(mix, now);
    expect(summary(committed, 2.5)).toBe(
      "GPU-hours of this stack: a: 1 GPU x 10 h = 10 GPU-hours (until 2026-11-25T10:00:00Z); b: 1 GPU x 10 h = 10 GPU-hours (until " +
        "2026-11-25T10:00:00Z); c: 4 GPUs x unbounded (no stop or auto-delete time); d: 2 GPUs x 720 h = 1440 GPU-hours (1 month). Total 1460 " +
        "GPU-hours plus unbounded (c), about 3650 at 2.5 per GPU-hour.",
    );
    expect(overBudget(committed, { budgetGpuHours: 1000 })).toEqual([
      "the stack's GPU-hours are unbounded: c has no stop or auto-delete time, and a budget is set",
      "the stack commits 1460 GPU-hours, over the budget of 1000 (budgetGpuHours)",
    ]);
    const bounded = committed.filter((c) => c.name !== "c");
    expect(overBudget(bounded, { budgetGpuHours: 1460 })).toEqual([]);
    expect(overBudget(bounded, { budgetCost: 3000, pricePerGpuHour: 2.5 })).toEqual([
      "the stack's estimated cost 3650 (1460 GPU-hours at 2.5 per GPU-hour) is over the budget of 3000 (budgetCost)",
    ]);
    expect(overBudget(committed, {})).toEqual([]);
  });

  it("price GPU-hours per GPU model (customGpuName), with a default, and say which have no price", () => {
    const models = [
      { name: "big", props: { ...running, stopTime: "2026-11-25T10:00:00Z", replicaSpecs: { customGpu: 2, customGpuName: "A100" } } },
      { name: "small", props: { ...running, stopTime: "2026-11-25T10:00:00Z", replicaSpecs: { customGpu: 1, customGpuName: "T4" } } },
    ];
    const committed = commitments(models, now);
    expect(summary(committed, { A100: 20, default: 3 })).toBe(
      "GPU-hours of this stack: big: 2 GPUs x 10 h = 20 GPU-hours (until 2026-11-25T10:00:00Z); small: 1 GPU x 10 h = 10 GPU-hours (until " +
        '2026-11-25T10:00:00Z). Total 30 GPU-hours, about 430 at the prices per GPU-hour {"A100":20,"default":3}.',
    );
    expect(overBudget(committed, { budgetCost: 400, pricePerGpuHour: { A100: 20 } })).toEqual([
      "no price for the GPUs of small under a cost budget: give their model (customGpuName) a price, or a default (pricePerGpuHour)",
    ]);
    expect(overBudget(committed, { budgetCost: 400, pricePerGpuHour: { A100: 20, T4: 40 } })).toEqual([
      'the stack\'s estimated cost 800 (30 GPU-hours at the prices per GPU-hour {"A100":20,"T4":40}) is over the budget of 400 (budgetCost)',
    ]);
  });

  it("count a notebook's GPUs from the template it names where it gives none, as the platform fills them, and name one whose template is not known", () => {
    const named = { ...running, stopTime: "2026-11-25T10:00:00Z", replicaSpecs: { templateId: 7, replicas: 3 } };
    expect(templateIdOf(named)).toBe(7);
    // The GPU ids a program leaves out are filled from the template too (platform-api A2.2): only both given need no template.
    expect(templateIdOf({ replicaSpecs: { templateId: 7, customGpu: 0 } })).toBe(7);
    expect(templateIdOf({ replicaSpecs: { templateId: 7, customGpu: 0, customGpuList: [] } })).toBeUndefined();
    expect(templateIdOf(running)).toBeUndefined();
    expect(gpusOf(withTemplate({ replicaSpecs: { templateId: 7, customGpu: 1 } }, { gpus: 4, listed: 4, model: "A100" }))).toBe(4);
    expect(gpusOf(withTemplate({ replicaSpecs: { templateId: 7, customGpuList: [] } }, { gpus: 4, listed: 4, model: "A100" }))).toBe(4);
    const read = withTemplate(named, { gpus: 4, listed: 4, model: "A100" });
    expect(gpusOf(read)).toBe(12);
    expect(maxGpus("t", read, baseline)).toEqual([
      "Notebook 't': replicaSpecs holds 12 GPUs (template 7: 4 per replica), more than the 8 a notebook may hold (maxGpusPerNotebook)",
    ]);
    expect(summary(commitments([{ name: "t", props: read }], now), { A100: 20 })).toBe(
      "GPU-hours of this stack: t: 12 GPUs x 10 h = 120 GPU-hours (until 2026-11-25T10:00:00Z). Total 120 GPU-hours, about 2400 at the prices " +
        'per GPU-hour {"A100":20}.',
    );
    const unread = withTemplate(named, { unknown: "no platform settings where pulumi runs" });
    expect(maxGpus("t", unread, baseline)).toEqual([
      "Notebook 't': replicaSpecs names template 7, whose GPUs are not known (no platform settings where pulumi runs), so its GPUs cannot be held " +
        "to 8 (maxGpusPerNotebook); give customGpu and customGpuList, or set allowUnknownGpus",
    ]);
    expect(maxGpus("t", unread, { ...baseline, allowUnknownGpus: true })).toEqual([]);
    const committed = commitments(
      [
        { name: "t", props: unread },
        { name: "a", props: { ...running, stopTime: "2026-11-25T10:00:00Z" } },
      ],
      now,
    );
    expect(summary(committed)).toBe(
      "GPU-hours of this stack: a: 1 GPU x 10 h = 10 GPU-hours (until 2026-11-25T10:00:00Z). Total 10 GPU-hours, plus t's GPUs not known " +
        "(template 7: no platform settings where pulumi runs).",
    );
    expect(overBudget(committed, { budgetGpuHours: 100 })).toEqual([
      "the GPUs of t are not known (template 7: no platform settings where pulumi runs), and a budget is set",
    ]);
  });

  it("count what a time they cannot read, a renewal, a next charge mode or both GPU fields commit, never less", () => {
    // A zone no place uses (+15:00): the time cannot be read, so neither the lifetime nor the hours are known.
    const unreadable = { ...running, stopTime: "2099-12-31T00:00:00+15:00", autoDeleteTime: "2026-11-25T10:00:00Z" };
    expect(maxLifetime("odd", unreadable, baseline, now)).toEqual([
      "Notebook 'odd': stopTime 2099-12-31T00:00:00+15:00 is not a date-time the pack can read, so its lifetime cannot be held to 168 hours " +
        "(maxLifetimeHours); give a time such as 2026-12-31T18:00:00Z",
    ]);
    const odd = commitments([{ name: "odd", props: unreadable }], now);
    expect(summary(odd)).toBe(
      "GPU-hours of this stack: no notebook with known GPUs. Total 0 GPU-hours, plus odd's GPU-hours not known (stopTime 2099-12-31T00:00:00+15:00 " +
        "is not a date-time).",
    );
    expect(overBudget(odd, { budgetGpuHours: 100 })).toEqual([
      "the GPU-hours of odd are not known (stopTime 2099-12-31T00:00:00+15:00 is not a date-time), and a budget is set",
    ]);
    // A subscription that renews itself has no end; one whose next period is monthly commits that month too.
    const renewing = { ...running, chargeMode: "monthly", duration: 1, autoRenew: 1 };
    const switching = { ...running, stopTime: "2026-11-25T10:00:00Z", nextChargeMode: "monthly" };
    expect(
      summary(
        commitments(
          [
            { name: "renewing", props: renewing },
            { name: "switching", props: switching },
          ],
          now,
        ),
      ),
    ).toBe(
      "GPU-hours of this stack: renewing: 1 GPU x unbounded (1 month, renewed automatically); switching: 1 GPU x 730 h = 730 GPU-hours " +
        "(until 2026-11-25T10:00:00Z, then a monthly subscription of 720 h). Total 730 GPU-hours plus unbounded (renewing).",
    );
    expect(chargeModes("switching", switching, baseline)).toEqual([
      'Notebook \'switching\': nextChargeMode "monthly" is not one of ["elastic"] (allowedChargeModes)',
    ]);
    // Both GPU fields: the larger counts, whichever the platform honours.
    expect(gpusOf({ replicaSpecs: { customGpu: 1, customGpuList: new Array(16).fill("gpu") } })).toBe(16);
    expect(gpusOf({ replicaSpecs: { customGpu: 4, customGpuList: ["gpu-a"], replicas: 2 } })).toBe(8);
    // A model named like a property every object has is priced as any other model.
    const constructor = commitments(
      [{ name: "c", props: { ...switching, nextChargeMode: undefined, replicaSpecs: { customGpu: 1, customGpuName: "constructor" } } }],
      now,
    );
    expect(overBudget(constructor, { budgetCost: 1, pricePerGpuHour: { default: 1 } })).toEqual([
      'the stack\'s estimated cost 10 (10 GPU-hours at the prices per GPU-hour {"default":1}) is over the budget of 1 (budgetCost)',
    ]);
    expect(overBudget(constructor, { budgetCost: 1, pricePerGpuHour: { A100: 1 } })).toEqual([
      "no price for the GPUs of c under a cost budget: give their model (customGpuName) a price, or a default (pricePerGpuHour)",
    ]);
    // A cost budget with no price cannot be checked: it says so rather than pass.
    expect(overBudget(constructor, { budgetCost: 1 })).toEqual([
      "budgetCost is set without pricePerGpuHour, so the stack's cost cannot be counted: give aicp-stack-budget a pricePerGpuHour",
    ]);
  });

  it("are mandatory by default and named as the README's configuration example names them", () => {
    expect(policies.map((p) => p.name)).toEqual([
      "aicp-notebook-max-gpus",
      "aicp-notebook-max-lifetime",
      "aicp-notebook-allowed-images",
      "aicp-notebook-charge-modes",
      "aicp-resource-group-pod-types",
      "aicp-stack-max-gpus",
      "aicp-stack-budget",
      "aicp-gpu-hours-summary",
    ]);
    expect(readFileSync("policy/index.ts", "utf8")).toContain('enforcementLevel: "mandatory"');
  });

  it("the pack's version is the package's (PolicyPack reads it from the pack's package.json)", () => {
    const version = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    expect(version("policy/pack/package.json")).toBe(version("package.json"));
  });

  it("the README's example configuration names only the pack's policies and their settings", () => {
    const example = JSON.parse(readFileSync("examples/guardrails/policy-config.json", "utf8")) as Record<string, Record<string, unknown>>;
    for (const [name, settings] of Object.entries(example)) {
      const policy = policies.find((p) => p.name === name);
      expect(policy, name).toBeDefined();
      const known = Object.keys(policy!.configSchema?.properties ?? {});
      for (const key of Object.keys(settings)) if (key !== "enforcementLevel") expect(known, `${name}.${key}`).toContain(key);
    }
  });
});
