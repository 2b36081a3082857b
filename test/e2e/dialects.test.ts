/**
 * One dialect through the real engine: the lifecycle
 * test/contract/dialect-lifecycles.test.ts runs in-process on all 13
 * dialects (up, a no-op preview, an in-place update, refresh, a preview
 * after it, destroy), here on the one furthest from the default: the /qai
 * prefix, body-hash signatures, counts as the page length, bare UTC+8 times,
 * writes answered as an object and envs as a string at once, with the stack's
 * notebook beyond the first page. It is the run where the most unknowns are
 * learned together, so it is the one that shows most of what only the engine
 * shows.
 *
 * What only the engine shows: the TypeScript SDK's dynamic provider and the
 * program each run in their own process, so each learns the dialect on its
 * own, and the bound of one extra request per unknown per process holds
 * across the real process boundaries; a real state file (exportStack) keeps
 * the notebook through refresh; the CLI's change summaries agree.
 */
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { adaptationCost, dialectCases } from "../support/dialect-cases";
import { emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { smallestGpuTemplate } from "../support/fixtures";
import { changeCount, createTestStack, recording, resourcesOfType, type TestStack } from "../support/pulumi";

const user = emulatorCredentials.userId;
const c = dialectCases.find((d) => d.name === "furthest from the default")!;

describe("the furthest dialect through the real engine", () => {
  it(`converges on: ${c.name}`, async () => {
    let emulator: Emulator | undefined;
    let target: TestStack | undefined;
    try {
      emulator = await startTestEmulator({ notebookReadyDelayMs: 100, dialect: c.dialect });
      const others = emulator.seedNotebooks({ namespace: user, count: c.seed ?? 0, namePrefix: "someone-else" });
      const settings = { stopTime: "2030-01-01T18:00:00Z" };
      target = await createTestStack({
        name: "dialect",
        config: emulatorConfig(emulator),
        program: (aicp) => {
          const group = new aicp.ResourceGroup("team", { skuId: "sku-gpu", podTypes: ["instance"], description: "dialect matrix" });
          const template = aicp.getResourceTemplatesOutput({ specType: ["common"] }).apply(smallestGpuTemplate);
          const notebook = new aicp.Notebook("research", {
            chargeMode: "elastic",
            duration: 3600,
            image: "jupyter/pytorch-notebook:latest",
            imageType: "official",
            serverType: "jupyter",
            replicaSpecs: { specs: template.rgNodeId, rgId: template.rgId, customGpu: 1 },
            stopTime: settings.stopTime,
            envs: [{ name: "MODE", value: "debug" }],
          });
          return { groupId: group.rgId, notebookId: notebook.id, status: notebook.status, stopTime: notebook.stopTime };
        },
      });
      const emu = emulator;
      const stack = target;
      const ours = () => emu.listNotebooks().filter((n) => n.namespace === user && !others.includes(String(n.uuid)));
      const groups = () => emu.listResourceGroups().filter((g) => g.user_id === user);
      const costs: number[] = [];
      /** Runs one engine operation and records the requests the adaptation cost in it. */
      const measured = async <T>(run: () => Promise<T>): Promise<T> => {
        emu.clearRequests();
        const result = await run();
        costs.push(adaptationCost(emu));
        return result;
      };
      const writes = () => emu.requests().filter((r) => r.operation !== "admin" && r.method !== "GET");

      const up = await measured(() => stack.stack.up(recording(stack)));
      expect(up.summary.result).toBe("succeeded");
      expect(ours()).toHaveLength(1);
      expect(ours()[0]!.status).toBe("Running");
      expect(groups()).toHaveLength(1);
      expect((await stack.stack.outputs()).notebookId!.value).toBe(ours()[0]!.uuid);

      const preview = await measured(() => stack.stack.preview(recording(stack)));
      expect(changeCount(preview.changeSummary)).toBe(0);
      expect(writes()).toEqual([]);

      settings.stopTime = "2030-06-01T20:00:00Z";
      const update = await measured(() => stack.stack.up(recording(stack)));
      expect(update.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(update.summary.resourceChanges?.replace ?? 0).toBe(0);
      expect(ours()).toHaveLength(1);

      const refresh = await measured(() => stack.stack.refresh(recording(stack)));
      expect(refresh.summary.resourceChanges?.delete ?? 0).toBe(0);
      const state = await stack.stack.exportStack();
      expect(resourcesOfType(state, "pulumi-nodejs:dynamic/aicp:Notebook").map((r) => r.id)).toEqual([ours()[0]!.uuid]);

      const after = await measured(() => stack.stack.preview(recording(stack)));
      expect(changeCount(after.changeSummary)).toBe(0);
      expect(writes()).toEqual([]);

      await measured(() => stack.stack.destroy(recording(stack)));
      expect(ours()).toEqual([]);
      expect(groups()).toEqual([]);
      expect(emu.listNotebooks()).toHaveLength(others.length);

      // Each operation runs the program and one provider process; each learns each wrong guess at most once.
      for (const cost of costs) expect(cost).toBeLessThanOrEqual(2 * c.wrongGuesses);
      console.log(`Dialect '${c.name}' through the engine: extra requests per operation (up, preview, up, refresh, preview, destroy): ${costs.join(", ")}`);
    } finally {
      await target?.dispose();
      await emulator?.close();
    }
  }, 300_000);
});
