/**
 * The guardrails read the GPUs of a template a notebook names (and gives no
 * customGpu) from the platform, read-only, with the settings in the
 * environment where pulumi runs (policy/templates.ts): over real HTTP to the
 * emulator, one request per template. Without settings, for a template the
 * platform does not list, or offline, the GPUs are "not known" and the
 * summary says why. Expected figures are written by hand from the template
 * this file adds (4 A100 GPUs).
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { guardrails } from "../../policy/policies";
import { TemplateCatalogue } from "../../policy/templates";
import { runPolicy } from "../support/policy-run";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { fourA100Template, PlatformWriter } from "../support/platform-writer";

// How @pulumi/policy hands a policy a resource's inputs in a preview: reading a value not known yet throws (its
// internal module, which its declarations leave out).
const { unknownCheckingProxy, unknownStringValue } = require("@pulumi/policy/proxy") as { unknownCheckingProxy: <T>(o: T) => T; unknownStringValue: string };

let emulator: Emulator;
let fourA100: number;
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  emulator = await startTestEmulator();
  const writer = new PlatformWriter({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
  const [id] = await writer.createTemplate(fourA100Template("node-pack-1", "share_gpu"));
  fourA100 = id!;
  await writer.close();
  environment = {
    AICP_BASE_URL: emulator.url,
    QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
    QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
    AICP_ZONE: emulatorZone,
  };
});
afterAll(() => emulator?.close());

/**
 * What a policy reports: a rule's text, or (the GPU-hour summary, which keeps
 * its own level) a violation whose message is the description, a line break
 * and the text.
 */
type Reported = string | { message?: string };
const ruleText = (m: Reported) => (typeof m === "string" ? m : (m.message ?? "").split("\n").slice(1).join("\n"));
const templateReads = () => emulator.requests().filter((r) => r.operation === "listTemplates");

describe("the guardrails' template catalogue", () => {
  it("answers a template's GPUs and model, of any spec type, with one read however often it is asked", async () => {
    const before = templateReads().length;
    const start = emulator.requests().length;
    const catalogue = new TemplateCatalogue(environment);
    const answers = await Promise.all([catalogue.answer(fourA100), catalogue.answer(fourA100), catalogue.answer(fourA100)]);
    expect(answers).toEqual([
      { gpus: 4, listed: 0, model: "A100" },
      { gpus: 4, listed: 0, model: "A100" },
      { gpus: 4, listed: 0, model: "A100" },
    ]);
    expect(templateReads().length - before).toBe(1);
    expect(
      emulator
        .requests()
        .slice(start)
        .filter((r) => r.method !== "GET" && r.operation !== "admin"),
    ).toEqual([]);
  });

  it("says why a template's GPUs are not known: no settings, a template the platform does not list, a platform out of reach", async () => {
    expect(await new TemplateCatalogue({}).answer(fourA100)).toEqual({
      unknown: "no platform settings where pulumi runs (QY_ACCESS_KEY_ID, QY_SECRET_ACCESS_KEY, AICP_BASE_URL, AICP_ZONE) to read it",
    });
    expect(await new TemplateCatalogue(environment).answer(987654)).toEqual({ unknown: "the platform lists no template 987654 for this account" });
    const offline = await new TemplateCatalogue({ ...environment, AICP_BASE_URL: "http://127.0.0.1:9" }).answer(fourA100);
    expect(offline).toEqual({ unknown: expect.stringMatching(/^cannot read it: .*ECONNREFUSED/) });
    expect(JSON.stringify(offline)).not.toContain(emulatorCredentials.secretAccessKey);
  });
});

describe("the guardrails with a notebook that names a template", () => {
  const notebook = (replicas: number) => ({
    chargeMode: "elastic",
    image: "registry.team/jupyter:1",
    stopTime: "2099-01-01T10:00:00Z",
    replicaSpecs: { templateId: fourA100, replicas },
  });

  it("hold it to the GPUs per notebook the template gives", async () => {
    const policy = guardrails(() => new TemplateCatalogue(environment)).find((p) => p.name === "aicp-notebook-max-gpus") as ResourceValidationPolicy;
    const messages: string[] = [];
    const args = { type: "aicp:index:Notebook", name: "wide", props: notebook(3), getConfig: () => ({}) };
    await (policy.validateResource as (args: never, report: (m: string) => void) => Promise<void>)(args as never, (m) => messages.push(m));
    expect(messages).toEqual([
      `Notebook 'wide': replicaSpecs holds 12 GPUs (template ${fourA100}: 4 per replica), more than the 8 a notebook may hold (maxGpusPerNotebook)`,
    ]);
  });

  it("count its GPUs in the stack's total and its summary, and name it when the platform cannot say", async () => {
    const run = async (catalogue: TemplateCatalogue, policyName: string, config: Record<string, unknown> = {}) => {
      const policy = guardrails(() => catalogue).find((p) => p.name === policyName)!;
      const resources = [{ type: "pulumi-nodejs:dynamic/aicp:Notebook", name: "wide", props: notebook(9) }];
      return (await runPolicy(policy, resources, config)).map((m) => ruleText(m.message));
    };
    expect(await run(new TemplateCatalogue(environment), "aicp-stack-max-gpus")).toEqual([
      "the stack's notebooks hold 36 GPUs (wide 36), more than the 32 a stack may hold (maxGpusPerStack)",
    ]);
    const [summary] = await run(new TemplateCatalogue(environment), "aicp-gpu-hours-summary");
    expect(summary).toMatch(/^GPU-hours of this stack: wide: 36 GPUs x \d+ h = \d+ GPU-hours \(until 2099-01-01T10:00:00Z\)\. Total \d+ GPU-hours\.$/);
    expect(await run(new TemplateCatalogue({}), "aicp-gpu-hours-summary")).toEqual([
      "GPU-hours of this stack: no notebook with known GPUs. Total 0 GPU-hours, plus wide's GPUs not known (template " +
        `${fourA100}: no platform settings where pulumi runs (QY_ACCESS_KEY_ID, QY_SECRET_ACCESS_KEY, AICP_BASE_URL, AICP_ZONE) to read it).`,
    ]);
    expect(await run(new TemplateCatalogue({}), "aicp-stack-budget", { budgetGpuHours: 10 })).toEqual([
      `the GPUs of wide are not known (template ${fourA100}: no platform settings where pulumi runs (QY_ACCESS_KEY_ID, QY_SECRET_ACCESS_KEY, ` +
        "AICP_BASE_URL, AICP_ZONE) to read it), and a budget is set",
    ]);
  });

  it("still hold a stack to its GPUs when another input of a notebook that names a template is not known yet (a preview)", async () => {
    const policy = guardrails(() => new TemplateCatalogue(environment)).find((p) => p.name === "aicp-stack-max-gpus")!;
    const resources = [
      { type: "aicp:index:Notebook", name: "big", props: unknownCheckingProxy({ ...notebook(1), replicaSpecs: { customGpu: 8, replicas: 4 } }) },
      { type: "aicp:index:Notebook", name: "built", props: unknownCheckingProxy({ ...notebook(1), image: unknownStringValue }) },
    ];
    // Refused at the notebook that crosses the limit, before its step: big alone holds the 32 the stack may.
    expect((await runPolicy(policy, resources)).map((m) => ({ at: m.at, text: ruleText(m.message) }))).toEqual([
      { at: "built", text: "the stack's notebooks hold 36 GPUs (big 32, built 4), more than the 32 a stack may hold (maxGpusPerStack)" },
    ]);
  });

  it("refuse a notebook whose template's GPUs are not known under the mandatory GPU rule, unless allowUnknownGpus", async () => {
    const policy = guardrails(() => new TemplateCatalogue({})).find((p) => p.name === "aicp-notebook-max-gpus") as ResourceValidationPolicy;
    const validate = policy.validateResource as (args: never, report: (m: string) => void) => Promise<void>;
    const run = async (config: Record<string, unknown>) => {
      const messages: string[] = [];
      await validate({ type: "aicp:index:Notebook", name: "wide", props: notebook(1), getConfig: () => config } as never, (m) => messages.push(m));
      return messages;
    };
    expect(await run({})).toEqual([
      `Notebook 'wide': replicaSpecs names template ${fourA100}, whose GPUs are not known (no platform settings where pulumi runs (QY_ACCESS_KEY_ID, ` +
        "QY_SECRET_ACCESS_KEY, AICP_BASE_URL, AICP_ZONE) to read it), so its GPUs cannot be held to 8 (maxGpusPerNotebook); give customGpu and " +
        "customGpuList, " +
        "or set allowUnknownGpus",
    ]);
    expect(await run({ allowUnknownGpus: true })).toEqual([]);
  });

  it("count a notebook whose stop time or GPUs a preview does not know yet as not known, the others as usual", async () => {
    const stackPolicy = (name: string) => guardrails(() => new TemplateCatalogue(environment)).find((p) => p.name === name)!;
    const run = async (name: string, config: Record<string, unknown> = {}) => {
      const inTenHours = new Date(Date.now() + 10 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
      const base = { chargeMode: "elastic", image: "registry.team/jupyter:1", stopTime: inTenHours };
      const resources = [
        { type: "aicp:index:Notebook", name: "known", props: unknownCheckingProxy({ ...base, replicaSpecs: { customGpu: 1 } }) },
        { type: "aicp:index:Notebook", name: "later", props: unknownCheckingProxy({ ...base, stopTime: unknownStringValue, replicaSpecs: { customGpu: 2 } }) },
        {
          type: "aicp:index:Notebook",
          name: "computed",
          props: unknownCheckingProxy({ ...base, replicaSpecs: { customGpu: unknownStringValue } }),
        },
      ];
      return (await runPolicy(stackPolicy(name), resources, config)).map((m) => ruleText(m.message));
    };
    expect(await run("aicp-gpu-hours-summary")).toEqual([
      expect.stringMatching(
        new RegExp(
          "^GPU-hours of this stack: known: 1 GPU x 10 h = 10 GPU-hours \\(until [0-9T:-]+Z\\)\\. Total 10 GPU-hours, plus later's GPU-hours not " +
            "known \\(stopTime not known until the update\\), computed's GPUs not known \\(replicaSpecs\\.customGpu not known until the update\\)\\.$",
        ),
      ),
    ]);
    expect(await run("aicp-stack-budget", { budgetGpuHours: 100 })).toEqual([
      "the GPU-hours of later are not known (stopTime not known until the update), and a budget is set",
      "the GPUs of computed are not known (replicaSpecs.customGpu not known until the update), and a budget is set",
    ]);
    expect(await run("aicp-stack-max-gpus")).toEqual([
      "the stack's GPUs cannot be counted: those of computed are not known (replicaSpecs.customGpu not known until the update); give customGpu " +
        "and customGpuList, " +
        "or set allowUnknownGpus",
    ]);
    expect(await run("aicp-stack-max-gpus", { allowUnknownGpus: true })).toEqual([]);
  });
});
