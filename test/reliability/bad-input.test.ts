/**
 * Bad input through the real engine: a sample of the bad-input matrix
 * (test/contract/bad-input.test.ts runs all of it in-process) as `pulumi
 * preview` of an invalid program. What only the engine shows: the TypeScript
 * SDK's arguments reach the provider's check through the engine, and the CLI
 * fails the preview naming the property, with no request sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { validNotebook } from "../support/bad-input-cases";
import { emulatorConfig, startTestEmulator } from "../support/emulator";
import { createTestStack, type TestStack } from "../support/pulumi";
import { recordCase } from "../support/reliability";

describe("bad input through the real engine", () => {
  let emulator: Emulator;
  const apiRequests = () => emulator.requests().filter((r) => r.operation !== "admin");

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
    emulator = await startTestEmulator();
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
  afterAll(async () => {
    await target?.dispose();
    await emulator?.close();
  });

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
