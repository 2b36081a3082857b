/**
 * The bad-input matrix: every rule of the spec broken once, as a program would
 * break it (test/support/bad-input-cases.ts). Each case must fail naming the
 * property and the rule, before any request: the emulator's log must stay
 * empty. A sample goes through the real engine as `pulumi preview` of an
 * invalid program in test/reliability/bad-input.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpError } from "../../client/errors";
import { configureFrom } from "../../provider/context";
import * as notebook from "../../provider/notebook";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import * as resourceGroup from "../../provider/resource-group";
import type { ResourceGroupInputs } from "../../provider/resource-group";
import * as aicp from "../../sdk";
import { functionCases, groupCases, notebookCases, validGroup, validNotebook } from "../support/bad-input-cases";
import { emulatorConfig, startTestEmulator } from "../support/emulator";
import { recordCase } from "../support/reliability";

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
});
