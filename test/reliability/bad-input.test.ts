/**
 * The bad-input matrix: every rule of the spec broken once, as a program would
 * break it. Each case must fail naming the property and the rule, before any
 * request: the emulator's log must stay empty. A sample also goes through the
 * real engine as `pulumi preview` of an invalid program.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import type { NotebookInputs } from "../../provider/notebook-inputs";
import * as resourceGroup from "../../provider/resource-group";
import type { ResourceGroupInputs } from "../../provider/resource-group";
import * as aicp from "../../sdk";
import { emulatorConfig, startTestEmulator } from "../support/emulator";
import { createTestStack, type TestStack } from "../support/pulumi";
import { recordCase } from "../support/reliability";

const validNotebook = {
  logicalName: "bad",
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter:1",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: "sku-1" },
};
const validGroup = { logicalName: "bad", skuId: "sku-1", podTypes: ["instance"] };
const volume = { fileSet: "data", mountPath: "/data", volumeType: "pfs" };
const huge = "x".repeat(100_000);

/** [name, arguments that break one rule, expected property, the rule's words] */
type Case = [string, Record<string, unknown>, string, RegExp];

const notebookCases: Case[] = [
  ["charge mode outside the enum", { chargeMode: "hourly" }, "chargeMode", /elastic.*monthly|Invalid option/],
  ["elastic duration other than 3600", { duration: 60 }, "duration", /3600 when chargeMode is elastic/],
  ["monthly duration 0", { chargeMode: "monthly", duration: 0 }, "duration", /1 to 60/],
  ["monthly duration 61", { chargeMode: "monthly", duration: 61 }, "duration", /1 to 60/],
  ["duration not a whole number", { duration: 1.5 }, "duration", /int|integer/i],
  ["duration of the wrong type", { duration: "3600" }, "duration", /expected number/],
  ["autoRenew not 0 or 1", { autoRenew: 2 }, "autoRenew", /0 or 1/],
  ["nextChargeMode outside the enum", { nextChargeMode: "weekly" }, "nextChargeMode", /Invalid option/],
  ["imageType outside the enum", { imageType: "private" }, "imageType", /Invalid option/],
  ["serverType outside the enum", { serverType: "vscode" }, "serverType", /Invalid option/],
  ["empty image", { image: "" }, "image", /must not be empty/],
  ["blank image", { image: "   " }, "image", /must not be empty/],
  ["huge image", { image: huge }, "image", /at most 1024/],
  ["blank name", { name: "   " }, "name", /must not be empty/],
  ["huge name", { name: huge }, "name", /at most 128/],
  ["path-like namespace ../x", { namespace: "../x" }, "namespace", /must not contain '\/'/],
  ["namespace with a slash", { namespace: "a/b" }, "namespace", /must not contain '\/'/],
  ["namespace '..'", { namespace: ".." }, "namespace", /must not be '\.' or '\.\.'/],
  ["huge namespace", { namespace: "n".repeat(300) }, "namespace", /at most 253/],
  ["empty userId", { userId: "" }, "userId", /must not be empty|required/],
  ["stopTime not a date-time", { stopTime: "tomorrow" }, "stopTime", /date-time/],
  ["autoDeleteTime with month 13", { autoDeleteTime: "2026-13-01T00:00:00Z" }, "autoDeleteTime", /real date/],
  ["replicaSpecs missing", { replicaSpecs: undefined }, "replicaSpecs", /expected object/],
  ["zero replicas", { replicaSpecs: { replicas: 0 } }, "replicaSpecs.replicas", /at least 1/],
  ["duplicate GPU ids", { replicaSpecs: { customGpuList: ["0", "0"] } }, "replicaSpecs.customGpuList", /duplicates/],
  ["infiniband not 0 or 1", { replicaSpecs: { customInfiniband: 2 } }, "replicaSpecs.customInfiniband", /0 or 1/],
  ["negative CPU", { replicaSpecs: { customCpu: -1 } }, "replicaSpecs.customCpu", />=0|at least|too small/i],
  ["GPU count of the wrong type", { replicaSpecs: { customGpu: "two" } }, "replicaSpecs.customGpu", /expected number/],
  ["unknown replica field", { replicaSpecs: { customGPU: 1 } }, "replicaSpecs.customGPU", /not a known property/],
  ["volume without fileSet", { volumeSpecs: [{ mountPath: "/d", volumeType: "pfs" }] }, "volumeSpecs[0].fileSet", /expected string/],
  ["relative mount path", { volumeSpecs: [{ ...volume, mountPath: "data" }] }, "volumeSpecs[0].mountPath", /absolute path/],
  ["volume permission outside rw/ro", { volumeSpecs: [{ ...volume, permission: "rx" }] }, "volumeSpecs[0].permission", /Invalid option/],
  ["volume fileType outside the enum", { volumeSpecs: [{ ...volume, fileType: "Socket" }] }, "volumeSpecs[0].fileType", /Invalid option/],
  ["negative quota", { volumeSpecs: [{ ...volume, quota: -5 }] }, "volumeSpecs[0].quota", /0 or more/],
  ["registry auth without username", { customImageSecret: { hasAuth: true, password: "p" } }, "customImageSecret.username", /required when hasAuth is true/],
  ["registry auth without password", { customImageSecret: { hasAuth: true, username: "u" } }, "customImageSecret.password", /required when hasAuth is true/],
  ["env without a name", { envs: [{ value: "x" }] }, "envs[0].name", /expected string/],
  ["huge pip configuration", { pip: huge }, "pip", /at most 65536/],
  ["desiredState outside Running/Stopped", { desiredState: "Paused" }, "desiredState", /"Running" or "Stopped"/],
  ["waitForReady not a boolean", { waitForReady: "yes" }, "waitForReady", /boolean/],
  ["readyTimeoutSeconds 0", { readyTimeoutSeconds: 0 }, "readyTimeoutSeconds", /1 to 86400/],
  ["readyTimeoutSeconds above a day", { readyTimeoutSeconds: 100_000 }, "readyTimeoutSeconds", /1 to 86400/],
  ["misspelled argument", { imagee: "x" }, "imagee", /not a Notebook argument/],
];

const groupCases: Case[] = [
  ["empty skuId", { skuId: "" }, "skuId", /must not be empty/],
  ["no pod types", { podTypes: [] }, "podTypes", /at least one/],
  ["pod type outside the enum", { podTypes: ["gpu"] }, "podTypes[0]", /Invalid option/],
  ["duplicate pod types", { podTypes: ["infer", "infer"] }, "podTypes", /duplicates/],
  ["customizeEnable not a boolean", { customizeEnable: 1 }, "customizeEnable", /boolean/],
  ["huge group name", { name: huge }, "name", /at most 128/],
  // 977: the platform's 1024 less the room the ownership mark takes (provider/ownership.ts).
  ["huge description", { description: huge }, "description", /at most 977 characters \(the platform's 1024/],
];

/** [name, call, expected property, rule] for data-source functions. */
type FunctionCase = [string, () => Promise<unknown>, string, RegExp];
const functionCases: FunctionCase[] = [
  ["templates: specType outside the enum", () => aicp.getResourceTemplates({ specType: ["gpu" as "common"] }), "specType[0]", /Invalid option/],
  ["templates: limit 0", () => aicp.getResourceTemplates({ limit: 0 }), "limit", /at least 1/],
  ["templates: negative offset", () => aicp.getResourceTemplates({ offset: -1 }), "offset", /0 or more/],
  ["templates: podType outside the enum", () => aicp.getResourceTemplates({ podType: "training" as "job" }), "podType", /Invalid option/],
  ["pods: path-like trainName ../x", () => aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "../x" }), "trainName", /must not contain '\/'/],
  ["pods: trainName '..'", () => aicp.getTrainingPods({ endpoint: "tfjobs", trainName: ".." }), "trainName", /must not be '\.' or '\.\.'/],
  ["pods: empty endpoint", () => aicp.getTrainingPods({ endpoint: "", trainName: "job" }), "endpoint", /must not be empty/],
  ["pods: path-like namespace", () => aicp.getTrainingPods({ namespace: "../etc", endpoint: "tfjobs", trainName: "job" }), "namespace", /must not contain '\/'/],
  ["disk: uuid over 36 characters", () => aicp.getNotebookDiskMetrics({ uuid: "u".repeat(37) }), "uuid", /at most 36/],
  ["notebooks: limit above 100 (platform-api B5)", () => aicp.getNotebooks({ limit: 500 }), "limit", /at most 100/],
];

describe("bad input", () => {
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const config = Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value]));
    configureFrom((key) => config[key]);
    process.env.PULUMI_CONFIG = JSON.stringify(config);
  });
  afterAll(async () => {
    delete process.env.PULUMI_CONFIG;
    await emulator?.close();
  });

  const apiRequests = () => emulator.requests().filter((r) => r.operation !== "admin");

  function expectFailure(failures: Array<{ property: string; reason: string }> | undefined, property: string, rule: RegExp) {
    const found = (failures ?? []).find((f) => f.property === property);
    expect(found, `no failure on ${property}: ${JSON.stringify(failures)}`).toBeDefined();
    expect(found!.reason).toMatch(rule);
    expect(found!.reason.startsWith(property)).toBe(true);
  }

  for (const [name, change, property, rule] of notebookCases) {
    it(`Notebook: ${name}`, async () => {
      let passed = false;
      try {
        const result = await notebook.check({}, { ...validNotebook, ...change } as unknown as NotebookInputs);
        expectFailure(result.failures, property, rule);
        expect(apiRequests()).toEqual([]);
        passed = true;
      } finally {
        recordCase({ suite: "bad input", name: `Notebook: ${name}`, passed, duplicates: 0, orphans: 0, leaks: 0 });
      }
    });
  }

  for (const [name, change, property, rule] of groupCases) {
    it(`ResourceGroup: ${name}`, async () => {
      let passed = false;
      try {
        const result = await resourceGroup.check({}, { ...validGroup, ...change } as unknown as ResourceGroupInputs);
        expectFailure(result.failures, property, rule);
        expect(apiRequests()).toEqual([]);
        passed = true;
      } finally {
        recordCase({ suite: "bad input", name: `ResourceGroup: ${name}`, passed, duplicates: 0, orphans: 0, leaks: 0 });
      }
    });
  }

  for (const [name, call, property, rule] of functionCases) {
    it(`function ${name}`, async () => {
      let passed = false;
      try {
        const error = (await call().catch((e: unknown) => e)) as AicpError;
        expect(error).toBeInstanceOf(AicpError);
        expect(error.code).toBe("AICP_VALIDATION");
        const issue = error.issues!.find((i) => i.path === property);
        expect(issue, `${property} not in ${JSON.stringify(error.issues)}`).toBeDefined();
        expect(issue!.message).toMatch(rule);
        expect(apiRequests()).toEqual([]);
        passed = true;
      } finally {
        recordCase({ suite: "bad input", name: `function ${name}`, passed, duplicates: 0, orphans: 0, leaks: 0 });
      }
    });
  }

  it("accepts a non-ASCII training job name and sends it as one encoded path segment", async () => {
    const error = (await aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "训练/任务 1" }).catch((e: unknown) => e)) as AicpError;
    expect(error.code).toBe("AICP_VALIDATION");
    emulator.clearRequests();
    const missing = (await aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "训练任务 1" }).catch((e: unknown) => e)) as AicpError;
    // Unknown job: the platform answered, on the one route, with the name encoded as one segment.
    expect(missing.status).toBe(404);
    expect(apiRequests().map((r) => r.path)).toEqual([
      "/aicp/trains/namespaces/usr-emulator/endpoints/tfjobs/trains/%E8%AE%AD%E7%BB%83%E4%BB%BB%E5%8A%A1%201/pods",
    ]);
    emulator.clearRequests();
  });

  describe("through the real engine", () => {
    const programs: Array<[string, Record<string, unknown>, RegExp]> = [
      ["charge mode", { chargeMode: "hourly" }, /chargeMode/],
      ["duration for the charge mode", { duration: 7200 }, /duration must be 3600 when chargeMode is elastic/],
      ["duplicate GPU ids", { replicaSpecs: { specs: "s", customGpuList: ["1", "1"] } }, /replicaSpecs\.customGpuList must not contain duplicates/],
      ["registry password", { customImageSecret: { hasAuth: true, username: "u" } }, /customImageSecret\.password is required when hasAuth is true/],
      ["path-like namespace", { namespace: "../x" }, /namespace must not contain '\/'/],
    ];
    let target: TestStack;
    let args: Record<string, unknown> = {};

    beforeAll(async () => {
      target = await createTestStack({
        name: "bad-input",
        config: emulatorConfig(emulator),
        program: (sdk) => {
          // Deliberately outside the declared types: what a JavaScript program could pass.
          const nb = new sdk.Notebook("bad", { ...validNotebook, logicalName: undefined, ...args } as unknown as ConstructorParameters<typeof sdk.Notebook>[1]);
          return { id: nb.id };
        },
      });
    });
    afterAll(async () => target?.dispose());

    for (const [name, change, message] of programs) {
      it(`pulumi preview refuses an invalid ${name}`, async () => {
        let passed = false;
        try {
          args = change;
          emulator.clearRequests();
          const error = await target.stack.preview().then(
            () => undefined,
            (e: unknown) => String(e),
          );
          expect(error).toBeDefined();
          expect(error).toMatch(message);
          expect(apiRequests()).toEqual([]);
          passed = true;
        } finally {
          recordCase({ suite: "bad input", name: `engine: ${name}`, passed, duplicates: 0, orphans: 0, leaks: 0 });
        }
      }, 120_000);
    }
  });
});
