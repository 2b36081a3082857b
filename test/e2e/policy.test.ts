/**
 * The guardrails policy pack (policy/) through the real engine:
 * `pulumi preview --policy-pack node_modules/pulumi-aicp/policy/pack` (and the executable `…/pack/aicp-guardrails`, the
 * pack's own runtime) of a TypeScript-package program (the package and
 * @pulumi/policy installed as a user installs them),
 * with the pack's configuration given as the engine's `--policy-pack-config`
 * JSON. A mandatory rule fails the preview with its message; an advisory one
 * warns and passes; a compliant program passes with no message; nothing
 * reaches the platform's write routes. The rules one by one:
 * test/unit/policy-rules.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliStack, type CliStack } from "../support/cli-project";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { fourA100Template, PlatformWriter } from "../support/platform-writer";
import { repositoryPlugin, yamlPluginProject } from "../support/plugin-project";

/** The pack as a user runs it: from the installed package (docs/guardrails.md); the YAML case runs the repository's. */
const installedPack = () => join(inject("e2eRoot"), "node_modules/pulumi-aicp/policy/pack");
const pack = resolve(__dirname, "../../policy/pack");
/** Both forms of the pack: the folder (@pulumi/policy's runtime) and the executable in it (the pack's own, policy/analyzer.ts). */
const forms = [
  { form: "folder", at: (folder: string) => folder },
  { form: "executable", at: (folder: string) => join(folder, "aicp-guardrails") },
];
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
const notebook = (name: string, args: string) =>
  `new aicp.Notebook("${name}", { chargeMode: "elastic", duration: 3600, image: "registry.team/jupyter:1", imageType: "custom", serverType: "jupyter", ` +
  `replicaSpecs: { specs: "sku-1", customGpu: 1 }, stopTime: "${inHours(10)}", ${args} });\n`;

/** The configuration every case uses: an image allowlist (the baseline allows every image). */
const images = { "aicp-notebook-allowed-images": { allowedImagePrefixes: ["registry.team/"] } };

/** The messages of the four baseline violations, the monthly notebook named `monthly`; written out by hand. */
const baselineMessages = (monthly: string) => [
  "Notebook 'big': replicaSpecs holds 16 GPUs, more than the 8 a notebook may hold (maxGpusPerNotebook)",
  "Notebook 'endless': neither stopTime nor autoDeleteTime is set, so it runs until someone stops it; set one within 168 hours (maxLifetimeHours)",
  "Notebook 'outside': image is outside the allowlist [\"registry.team/\"] (allowedImagePrefixes)",
  `Notebook '${monthly}': chargeMode "monthly" is not one of ["elastic"] (allowedChargeModes)`,
];

const violating =
  `const aicp = require("pulumi-aicp");\n` +
  notebook("big", `replicaSpecs: { specs: "sku-1", customGpu: 16 }`) +
  notebook("endless", `stopTime: undefined`) +
  // A secret image (a private registry's path): no message may show it.
  notebook("outside", `image: require("@pulumi/pulumi").secret("docker.io/someone/miner:latest")`) +
  notebook("subscription", `chargeMode: "monthly", duration: 1`);

describe.each(forms)("the guardrails policy pack ($form), through the engine", ({ at }) => {
  let emulator: Emulator;
  let c: CliStack;
  const writes = () => emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");
  async function preview(config: Record<string, unknown>) {
    const file = join(c.project.dir, "policy-config.json");
    writeFileSync(file, JSON.stringify(config));
    return c.pulumi("preview", "--policy-pack", at(installedPack()), "--policy-pack-config", file);
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    c = await cliStack("policy", emulator, violating);
  }, 120_000);
  afterAll(async () => {
    c?.project.dispose();
    await emulator?.close();
  });

  it("mandatory by default: each rule fails the preview with its message, and nothing is written", async () => {
    emulator.clearRequests();
    const run = await preview(images);
    expect(run.status, run.output).not.toBe(0);
    for (const message of baselineMessages("subscription")) expect(run.output).toContain(message);
    expect(run.output).toMatch(/mandatory/);
    expect(run.output).not.toContain("someone/miner");
    expect(writes()).toEqual([]);
  }, 120_000);

  it("pulumi up with the pack refuses the same program before any notebook is created", async () => {
    emulator.clearRequests();
    const file = join(c.project.dir, "policy-config.json");
    writeFileSync(file, JSON.stringify(images));
    const up = await c.pulumi("up", "--policy-pack", at(installedPack()), "--policy-pack-config", file);
    expect(up.status, up.output).not.toBe(0);
    // An update stops at the first mandatory violation; which notebook registers first varies.
    expect(up.output).toMatch(/\[mandatory\] +aicp-notebook-[a-z-]+ +\(pulumi-nodejs:dynamic\/aicp:Notebook: (big|endless|outside|subscription)\)/);
    expect(writes()).toEqual([]);
    expect(emulator.listNotebooks()).toEqual([]);
  }, 120_000);

  it("up without a preview refuses the notebook that would cross the stack's GPU cap, before its create", async () => {
    const three = `const aicp = require("pulumi-aicp");\n` + notebook("one", "") + notebook("two", "") + notebook("three", "");
    writeFileSync(join(c.project.dir, "index.js"), three);
    const file = join(c.project.dir, "policy-config.json");
    writeFileSync(file, JSON.stringify({ ...images, "aicp-stack-max-gpus": { maxGpusPerStack: 2 } }));
    emulator.clearRequests();
    // cliStack's up is `--yes --skip-preview`: no preview runs the pack first.
    const up = await c.pulumi("up", "--policy-pack", at(installedPack()), "--policy-pack-config", file);
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toMatch(/\[mandatory\] +aicp-stack-max-gpus +\(pulumi-nodejs:dynamic\/aicp:Notebook: (one|two|three)\)/);
    expect(up.output).toContain("the stack's notebooks hold 3 GPUs");
    // Two creates within the cap; the third was refused before it was sent.
    expect(writes().filter((w) => w.operation === "createNotebook")).toHaveLength(2);
    expect(emulator.listNotebooks()).toHaveLength(2);
    const destroyed = await c.pulumi("destroy");
    expect(destroyed.status, destroyed.output).toBe(0);
    writeFileSync(join(c.project.dir, "index.js"), violating);
    emulator.clearRequests();
  }, 180_000);

  it("advisory: the same program warns and passes", async () => {
    const advisory = Object.fromEntries(
      ["aicp-notebook-max-gpus", "aicp-notebook-max-lifetime", "aicp-notebook-allowed-images", "aicp-notebook-charge-modes"].map((name) => [
        name,
        { enforcementLevel: "advisory", ...(name === "aicp-notebook-allowed-images" ? images[name] : {}) },
      ]),
    );
    const run = await preview(advisory);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain("Notebook 'big': replicaSpecs holds 16 GPUs, more than the 8 a notebook may hold (maxGpusPerNotebook)");
    expect(run.output).toMatch(/advisory/);
    expect(writes()).toEqual([]);
  }, 120_000);

  it("a compliant program passes with no rule's message; the GPU-hour summary is advisory", async () => {
    writeFileSync(join(c.project.dir, "index.js"), `const aicp = require("pulumi-aicp");\n${notebook("fine", "")}`);
    const run = await preview(images);
    expect(run.status, run.output).toBe(0);
    expect(run.output).not.toMatch(/Notebook '[a-z]+':/);
    expect(run.output).not.toMatch(/mandatory/);
    expect(run.output).toMatch(/GPU-hours of this stack: fine: 1 GPU x 10 h = 10 GPU-hours \(until [0-9T:-]+Z\)\. Total 10 GPU-hours\./);
    // The engine's `all` key sets every policy's level, the summary's too: it still informs and passes.
    const allMandatory = await preview({ all: "mandatory", ...images });
    expect(allMandatory.status, allMandatory.output).toBe(0);
    expect(allMandatory.output).toMatch(/\[advisory\] +aicp-gpu-hours-summary/);
    expect(allMandatory.output).not.toMatch(/\[mandatory\]/);
  }, 120_000);

  it("the GPU-hours of a known mix, with their cost, and a budget below them fails the preview", async () => {
    const mix =
      `const aicp = require("pulumi-aicp");\n` +
      notebook("a", "") +
      notebook("b", "") +
      notebook("c", `stopTime: undefined, replicaSpecs: { specs: "sku-1", customGpu: 4 }`) +
      notebook("d", `chargeMode: "monthly", duration: 1, replicaSpecs: { specs: "sku-1", customGpu: 2 }`);
    writeFileSync(join(c.project.dir, "index.js"), mix);
    emulator.clearRequests();
    const run = await preview({
      ...images,
      "aicp-notebook-max-lifetime": "disabled",
      "aicp-notebook-charge-modes": "disabled",
      "aicp-gpu-hours-summary": { pricePerGpuHour: 2.5 },
      "aicp-stack-budget": { budgetGpuHours: 1000 },
    });
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toContain(
      "c: 4 GPUs x unbounded (no stop or auto-delete time); d: 2 GPUs x 720 h = 1440 GPU-hours (1 month). Total 1460 GPU-hours plus unbounded " +
        "(c), about 3650 at 2.5 per GPU-hour.",
    );
    expect(run.output).toMatch(/a: 1 GPU x 10 h = 10 GPU-hours \(until [0-9T:-]+Z\); b: 1 GPU x 10 h = 10 GPU-hours/);
    expect(run.output).toContain("the stack's GPU-hours are unbounded: c has no stop or auto-delete time, and a budget is set");
    expect(run.output).toContain("the stack commits 1460 GPU-hours, over the budget of 1000 (budgetGpuHours)");
    expect(writes()).toEqual([]);
  }, 120_000);

  it("a notebook that names a template holds the template's GPUs, read from the platform where pulumi runs, once", async () => {
    const writer = new PlatformWriter({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
    const [template] = await writer.createTemplate(fourA100Template("node-pack-e2e"));
    await writer.close();
    const named = `replicaSpecs: { templateId: ${template}, replicas: 3 }`;
    writeFileSync(join(c.project.dir, "index.js"), `const aicp = require("pulumi-aicp");\n${notebook("wide", named)}${notebook("other", named)}`);
    emulator.clearRequests();
    const run = await preview({ ...images, "aicp-gpu-hours-summary": { pricePerGpuHour: { A100: 2 } } });
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toContain(
      `Notebook 'wide': replicaSpecs holds 12 GPUs (template ${template}: 4 per replica), more than the 8 a notebook may hold (maxGpusPerNotebook)`,
    );
    expect(run.output).toMatch(/other: 12 GPUs x 10 h = 120 GPU-hours \(until [0-9T:-]+Z\); wide: 12 GPUs x 10 h = 120 GPU-hours/);
    expect(run.output).toContain('Total 240 GPU-hours, about 480 at the prices per GPU-hour {"A100":2}.');
    expect(emulator.requests().filter((r) => r.operation === "listTemplates")).toHaveLength(1);
    expect(writes()).toEqual([]);
  }, 120_000);
});

describe("the guardrails policy pack, through the engine, for a YAML program and the plugin", () => {
  it.each(forms)(
    "$form: mandatory rules fail the preview of aicp:index resources with their messages, and nothing is written",
    async ({ at }) => {
      const emulator = await startTestEmulator();
      const yamlNotebook = (name: string, extra: string) => `
  ${name}:
    type: aicp:index:Notebook
    properties:
      chargeMode: ${extra.includes("monthly") ? "monthly" : "elastic"}
      duration: ${extra.includes("monthly") ? 1 : 3600}
      image: ${extra.includes("outside") ? "docker.io/someone/miner:latest" : "registry.team/jupyter:1"}
      imageType: custom
      serverType: jupyter
      replicaSpecs:
        specs: sku-1
        customGpu: ${extra.includes("big") ? 16 : 1}
${extra.includes("endless") ? "" : `      stopTime: "${inHours(10)}"\n`}`;
      const stack = await yamlPluginProject(
        "policy-yaml",
        emulator,
        `resources:${["big", "endless", "outside", "monthly"].map((n) => yamlNotebook(n, n)).join("")}`,
        repositoryPlugin,
      );
      try {
        const file = join(stack.project.dir, "policy-config.json");
        writeFileSync(file, JSON.stringify(images));
        const run = await stack.pulumi("preview", "--policy-pack", at(pack), "--policy-pack-config", file);
        expect(run.status, run.output).not.toBe(0);
        for (const message of baselineMessages("monthly")) expect(run.output).toContain(message);
        expect(emulator.requests().filter((r) => r.operation !== "admin" && r.method !== "GET")).toEqual([]);
      } finally {
        stack.project.dispose();
        await emulator.close();
      }
    },
    300_000,
  );
});
