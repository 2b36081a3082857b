/**
 * The guardrails' own policy runtime (policy/runtime.ts), which the
 * executable pack runs, against @pulumi/policy's: the same resources, sent
 * through @pulumi/policy's own Analyze and AnalyzeStack handlers as protocol
 * messages, give the same diagnostics. And what only configuration shows,
 * with the expected texts written out by hand. Through the engine:
 * test/e2e/policy.test.ts (both forms of the pack).
 */
import { describe, expect, it } from "vitest";
import { guardrails } from "../../policy/policies";
import { TemplateCatalogue } from "../../policy/templates";
import { PolicyRuntime, type AnalyzedResource, type Violation } from "../../policy/runtime";

const notebookType = "pulumi-nodejs:dynamic/aicp:Notebook";
const unknownString = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const base = { chargeMode: "elastic", image: "registry.team/jupyter:1", imageType: "custom", stopTime: "2099-01-01T00:00:00Z" };

const notebook = (name: string, properties: Record<string, unknown>): AnalyzedResource => ({
  type: notebookType,
  name,
  urn: `urn:pulumi:ci::guarded::${notebookType}::${name}`,
  properties: { ...base, replicaSpecs: { specs: "sku-1", customGpu: 1 }, ...properties },
});

const resources = [
  notebook("fine", {}),
  notebook("big", { replicaSpecs: { specs: "sku-1", customGpu: 16 } }),
  notebook("endless", { stopTime: undefined }),
  notebook("outside", { image: secret("docker.io/someone/miner:latest") }),
  notebook("subscription", { chargeMode: "monthly", duration: 1 }),
  notebook("later", { stopTime: unknownString }),
  notebook("counted-later", { replicaSpecs: { specs: "sku-1", customGpu: unknownString } }),
];

/**
 * The pack as one command's process holds it: the stack limits keep what they were shown (policies.ts stackLimit), so
 * each runtime and each server gets policies of its own.
 */
const freshPolicies = () => guardrails(() => new TemplateCatalogue(process.env));
const runtime = () => new PolicyRuntime(freshPolicies(), "aicp-guardrails", "0.1.0");
const byName = (a: Violation, b: Violation) => `${a.policyName}${a.message}`.localeCompare(`${b.policyName}${b.message}`);

/** What @pulumi/policy's own server answers for the same requests (its internal handlers, as the engine would call them). */
async function crossGuard(kind: "resource" | "stack", input: AnalyzedResource[]): Promise<Violation[]> {
  const server = require("@pulumi/policy/server");
  const proto = require("@pulumi/pulumi/proto/analyzer_pb.js");
  const { Struct } = require("google-protobuf/google/protobuf/struct_pb.js");
  const levels = ["advisory", "mandatory", "disabled", "remediate"];
  const wire = (
    r: AnalyzedResource,
    message: { setType(t: string): void; setName(n: string): void; setUrn(u: string): void; setProperties(p: unknown): void; setOptions(o: unknown): void },
  ) => {
    message.setOptions(new proto.AnalyzerResourceOptions());
    message.setType(r.type);
    message.setName(r.name);
    message.setUrn(r.urn);
    // As the engine sends them: properties absent when undefined.
    message.setProperties(Struct.fromJavaScript(JSON.parse(JSON.stringify(r.properties))));
    return message;
  };
  const call = (fn: (call: unknown, callback: (error: unknown, response: unknown) => void) => void, request: unknown) =>
    new Promise<{ getDiagnosticsList(): Array<Record<string, () => unknown>> }>((resolve, reject) =>
      fn({ request }, (error, response) => (error ? reject(error) : resolve(response as never))),
    );
  const answers =
    kind === "resource"
      ? await Promise.all(
          // One pack per resource, as ours is run below: what each notebook alone is refused for.
          input.map((r) => call(server.makeAnalyzeRpcFun("aicp-guardrails", "0.1.0", "mandatory", freshPolicies()), wire(r, new proto.AnalyzeRequest()))),
        )
      : [
          await call(
            server.makeAnalyzeStackRpcFun("aicp-guardrails", "0.1.0", "mandatory", freshPolicies()),
            stackRequest(
              proto,
              input.map((r) => wire(r, new proto.AnalyzerResource())),
            ),
          ),
        ];
  return answers.flatMap((answer) =>
    answer.getDiagnosticsList().map((d) => ({
      policyName: d.getPolicyname!() as string,
      policyPackName: d.getPolicypackname!() as string,
      policyPackVersion: d.getPolicypackversion!() as string,
      description: d.getDescription!() as string,
      message: d.getMessage!() as string,
      enforcementLevel: levels[d.getEnforcementlevel!() as number] as Violation["enforcementLevel"],
      ...(d.getUrn!() ? { urn: d.getUrn!() as string } : {}),
    })),
  );
}

function stackRequest(proto: { AnalyzeStackRequest: new () => { setResourcesList(list: unknown[]): void } }, list: unknown[]) {
  const request = new proto.AnalyzeStackRequest();
  request.setResourcesList(list);
  return request;
}

describe("the guardrails' own runtime", () => {
  it("reports what @pulumi/policy's server reports for each resource: violations, secrets read, an input not known yet", async () => {
    const ours = (await Promise.all(resources.map((r) => runtime().analyzeResource(r)))).flat();
    expect(ours.length).toBeGreaterThanOrEqual(5);
    expect(ours.sort(byName)).toEqual((await crossGuard("resource", resources)).sort(byName));
  });

  it("reports what @pulumi/policy's server reports for the stack", async () => {
    const ours = await runtime().analyzeStack(resources);
    expect(ours.map((v) => v.policyName)).toContain("aicp-gpu-hours-summary");
    const theirs = await crossGuard("stack", resources);
    // The summary and the budget count hours from now: the two runs differ by the milliseconds between them.
    const hoursless = (vs: Violation[]) => vs.map((v) => ({ ...v, message: v.message.replace(/[\d.,]+ (GPU-)?h/g, "N h") })).sort(byName);
    expect(hoursless(ours)).toEqual(hoursless(theirs));
  });

  it("takes the engine's configuration: a level, settings, disabled", async () => {
    const configured = runtime();
    configured.configure({
      "aicp-notebook-max-gpus": { enforcementLevel: "advisory", maxGpusPerNotebook: 4 },
      "aicp-notebook-max-lifetime": { enforcementLevel: "disabled" },
      "aicp-notebook-allowed-images": { enforcementLevel: "mandatory", allowedImagePrefixes: ["registry.team/"] },
    });
    const found = [
      ...(await configured.analyzeResource(notebook("six", { replicaSpecs: { specs: "sku-1", customGpu: 6 }, stopTime: undefined }))),
      ...(await configured.analyzeResource(notebook("outside", { image: secret("docker.io/someone/miner:latest") }))),
    ];
    expect(found.map((v) => [v.policyName, v.enforcementLevel, v.message])).toEqual([
      [
        "aicp-notebook-max-gpus",
        "advisory",
        "A notebook holds at most maxGpusPerNotebook GPUs.\n" +
          "Notebook 'six': replicaSpecs holds 6 GPUs, more than the 4 a notebook may hold (maxGpusPerNotebook)",
      ],
      [
        "aicp-notebook-allowed-images",
        "mandatory",
        "A notebook's image starts with an allowed registry prefix, and its imageType is allowed.\n" +
          "Notebook 'outside': image is outside the allowlist [\"registry.team/\"] (allowedImagePrefixes)",
      ],
    ]);
  });

  it("shows a secret string as [secret] in every message, the resource's and the stack's, never its value", async () => {
    const far = "2099-06-30T12:00:00Z";
    const hidden = notebook("hidden", { stopTime: secret(far), chargeMode: secret("monthly"), imageType: secret("bespoke"), duration: 1 });
    const soon = new Date(Date.now() + 5 * 3_600_000).toISOString();
    const timed = notebook("timed", { stopTime: secret(soon) });
    const found = [...(await runtime().analyzeResource(hidden)), ...(await runtime().analyzeStack([hidden, timed]))];
    const messages = found.map((v) => v.message);
    expect(messages.at(-1)).toMatch(/\. Total 725 GPU-hours\.$/);
    expect(messages.join("\n")).not.toMatch(new RegExp(`2099-06-30|monthly"|bespoke|${soon.slice(0, 13)}`));
    expect(messages).toEqual([
      expect.stringMatching(/\nNotebook 'hidden': stopTime \[secret\] is \d+ hours away, more than 168 hours \(maxLifetimeHours\)$/),
      expect.stringMatching(/\nNotebook 'hidden': imageType \[secret\] is not one of \["official","user","custom"\] \(allowedImageTypes\)$/),
      expect.stringMatching(/\nNotebook 'hidden': chargeMode \[secret\] is not one of \["elastic"\] \(allowedChargeModes\)$/),
      expect.stringMatching(
        /\nGPU-hours of this stack: hidden: 1 GPU x 720 h = 720 GPU-hours \(1 month\); timed: 1 GPU x 5 h = 5 GPU-hours \(until \[secret\]\)/,
      ),
    ]);
    // A word that holds the secret's text is not a secret: only the value itself is hidden.
    const custom = notebook("custom", { imageType: secret("custom"), replicaSpecs: { templateId: 7 }, stopTime: undefined });
    const customMessages = (await runtime().analyzeResource(custom)).map((v) => v.message).join("\n");
    expect(customMessages).toContain("give customGpu");
  });

  it("hides only the secrets of what the rules read: a large secret elsewhere neither fails the pack nor hides other text", async () => {
    const kubeconfig = "k".repeat(40_000);
    // The SDK makes the whole envs list a secret: its common values ("8", "hours") are not what messages show.
    const envs = secret([
      { name: "OMP_NUM_THREADS", value: "8" },
      { name: "UNIT", value: "hours" },
      { name: "KUBECONFIG", value: kubeconfig },
    ]);
    const big = notebook("big", { envs, replicaSpecs: { specs: "sku-1", customGpu: 16 }, stopTime: undefined, image: secret(kubeconfig) });
    const other = {
      type: "kubernetes:core/v1:Secret",
      name: "kube",
      urn: "urn:pulumi:ci::guarded::kubernetes:core/v1:Secret::kube",
      properties: { data: secret(kubeconfig) },
    };
    const found = [...(await runtime().analyzeResource(big)), ...(await runtime().analyzeStack([big, other]))].map((v) => v.message);
    expect(found.join("\n")).not.toContain("[secret]");
    expect(found).toContain(
      "A notebook holds at most maxGpusPerNotebook GPUs.\nNotebook 'big': replicaSpecs holds 16 GPUs, more than the 8 a notebook may hold (maxGpusPerNotebook)",
    );
    expect(found.join("\n")).toContain("set one within 168 hours (maxLifetimeHours)");
    expect(found.join("\n")).toContain("big: 16 GPUs x unbounded");
  });

  it("keeps the GPU-hour summary advisory when the engine sends every policy as mandatory (its `all` key)", async () => {
    const allMandatory = runtime();
    allMandatory.configure(Object.fromEntries(allMandatory.policies.map((p) => [p.name, { enforcementLevel: "mandatory" as const }])));
    const found = await allMandatory.analyzeStack([notebook("fine", {})]);
    expect(found.map((v) => [v.policyName, v.enforcementLevel])).toEqual([["aicp-gpu-hours-summary", "advisory"]]);
    const disabled = runtime();
    disabled.configure({ "aicp-gpu-hours-summary": { enforcementLevel: "disabled" } });
    expect(await disabled.analyzeStack([notebook("fine", {})])).toEqual([]);
  });

  it("a stop time not known in a preview: that policy is advisory and says why, the others run", async () => {
    const found = await runtime().analyzeResource(notebook("later", { stopTime: unknownString, replicaSpecs: { specs: "sku-1", customGpu: 16 } }));
    expect(found.map((v) => [v.policyName, v.enforcementLevel, v.message])).toEqual([
      [
        "aicp-notebook-max-gpus",
        "mandatory",
        "A notebook holds at most maxGpusPerNotebook GPUs.\n" +
          "Notebook 'later': replicaSpecs holds 16 GPUs, more than the 8 a notebook may hold (maxGpusPerNotebook)",
      ],
      [
        "aicp-notebook-max-lifetime",
        "advisory",
        "can't run policy 'aicp-notebook-max-lifetime' from policy pack 'aicp-guardrails@v0.1.0' during preview: " +
          "string value at .stopTime can't be known during preview",
      ],
    ]);
  });
});
