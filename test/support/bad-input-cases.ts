/** The bad-input matrix's cases (test/contract/bad-input.test.ts): every rule of the spec broken once, as a program would break it. */
import * as aicp from "../../sdk";

export const validNotebook = {
  logicalName: "bad",
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter:1",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: "sku-1" },
};
export const validGroup = { logicalName: "bad", skuId: "sku-1", podTypes: ["instance"] };
const volume = { fileSet: "data", mountPath: "/data", volumeType: "pfs" };
const huge = "x".repeat(100_000);

/** [name, arguments that break one rule, expected property, the rule's words] */
export type Case = [string, Record<string, unknown>, string, RegExp];

export const notebookCases: Case[] = [
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
  ["replicaSpecs missing", { replicaSpecs: undefined }, "replicaSpecs", /is missing: set it to an object/],
  ["zero replicas", { replicaSpecs: { replicas: 0 } }, "replicaSpecs.replicas", /at least 1/],
  ["duplicate GPU ids", { replicaSpecs: { customGpuList: ["0", "0"] } }, "replicaSpecs.customGpuList", /duplicates/],
  ["infiniband not 0 or 1", { replicaSpecs: { customInfiniband: 2 } }, "replicaSpecs.customInfiniband", /0 or 1/],
  ["negative CPU", { replicaSpecs: { customCpu: -1 } }, "replicaSpecs.customCpu", />=0|at least|too small/i],
  ["GPU count of the wrong type", { replicaSpecs: { customGpu: "two" } }, "replicaSpecs.customGpu", /expected number/],
  ["unknown replica field", { replicaSpecs: { customGPU: 1 } }, "replicaSpecs.customGPU", /not a known property/],
  ["volume without fileSet", { volumeSpecs: [{ mountPath: "/d", volumeType: "pfs" }] }, "volumeSpecs[0].fileSet", /is missing: set it to a string/],
  ["relative mount path", { volumeSpecs: [{ ...volume, mountPath: "data" }] }, "volumeSpecs[0].mountPath", /absolute path/],
  ["volume permission outside rw/ro", { volumeSpecs: [{ ...volume, permission: "rx" }] }, "volumeSpecs[0].permission", /Invalid option/],
  ["volume fileType outside the enum", { volumeSpecs: [{ ...volume, fileType: "Socket" }] }, "volumeSpecs[0].fileType", /Invalid option/],
  ["negative quota", { volumeSpecs: [{ ...volume, quota: -5 }] }, "volumeSpecs[0].quota", /0 or more/],
  ["registry auth without username", { customImageSecret: { hasAuth: true, password: "p" } }, "customImageSecret.username", /required when hasAuth is true/],
  ["registry auth without password", { customImageSecret: { hasAuth: true, username: "u" } }, "customImageSecret.password", /required when hasAuth is true/],
  ["env without a name", { envs: [{ value: "x" }] }, "envs[0].name", /is missing: set it to a string/],
  ["huge pip configuration", { pip: huge }, "pip", /at most 65536/],
  ["desiredState outside Running/Stopped", { desiredState: "Paused" }, "desiredState", /"Running" or "Stopped"/],
  ["waitForReady not a boolean", { waitForReady: "yes" }, "waitForReady", /boolean/],
  ["readyTimeoutSeconds 0", { readyTimeoutSeconds: 0 }, "readyTimeoutSeconds", /1 to 86400/],
  ["readyTimeoutSeconds above a day", { readyTimeoutSeconds: 100_000 }, "readyTimeoutSeconds", /1 to 86400/],
  ["misspelled argument", { imagee: "x" }, "imagee", /not a Notebook argument/],
];

export const groupCases: Case[] = [
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
export const functionCases: FunctionCase[] = [
  ["templates: specType outside the enum", () => aicp.getResourceTemplates({ specType: ["gpu" as "common"] }), "specType[0]", /Invalid option/],
  ["templates: limit 0", () => aicp.getResourceTemplates({ limit: 0 }), "limit", /at least 1/],
  ["templates: negative offset", () => aicp.getResourceTemplates({ offset: -1 }), "offset", /0 or more/],
  ["templates: podType outside the enum", () => aicp.getResourceTemplates({ podType: "training" as "job" }), "podType", /Invalid option/],
  ["pods: path-like trainName ../x", () => aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "../x" }), "trainName", /must not contain '\/'/],
  ["pods: trainName '..'", () => aicp.getTrainingPods({ endpoint: "tfjobs", trainName: ".." }), "trainName", /must not be '\.' or '\.\.'/],
  ["pods: empty endpoint", () => aicp.getTrainingPods({ endpoint: "", trainName: "job" }), "endpoint", /must not be empty/],
  [
    "pods: path-like namespace",
    () => aicp.getTrainingPods({ namespace: "../etc", endpoint: "tfjobs", trainName: "job" }),
    "namespace",
    /must not contain '\/'/,
  ],
  ["disk: uuid over 36 characters", () => aicp.getNotebookDiskMetrics({ uuid: "u".repeat(37) }), "uuid", /at most 36/],
  ["notebooks: limit above 100 (platform-api B5)", () => aicp.getNotebooks({ limit: 500 }), "limit", /at most 100/],
];
