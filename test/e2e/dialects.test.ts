/**
 * The dialect matrix (issue 10, item 6): a program's whole lifecycle through
 * the real engine against the emulator in each dialect, configured only as a
 * user configures from the README (keys, user id, zone): up, a no-op
 * preview, an in-place update, refresh, a preview after it, destroy. Against
 * each: it converges, no duplicate, no orphan, no notebook dropped from the
 * state while it is live, and the adaptation costs at most one extra request
 * per unknown per process (each engine operation runs the program and a
 * provider process, each of which learns on its own).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Dialect, Emulator } from "../../emulator";
import { emulatorConfig, emulatorCredentials, startTestEmulator } from "../support/emulator";
import { smallestGpuTemplate } from "../support/fixtures";
import { changeCount, createTestStack, recording, resourcesOfType, type TestStack } from "../support/pulumi";

const user = emulatorCredentials.userId;

interface DialectCase {
  name: string;
  dialect: Partial<Dialect>;
  /** Unknowns on which the client's first guess is wrong: each may cost one request per process. */
  wrongGuesses: number;
  /** Notebooks of others in the namespace first, so the stack's notebook is beyond the first page. */
  seed?: number;
  /** Leave aicp:zone unset. */
  noZone?: boolean;
}

const cases: DialectCase[] = [
  { name: "default (closest to the public evidence)", dialect: {}, wrongGuesses: 0 },
  { name: "prefix /qai/aicp only", dialect: { prefixes: "qai" }, wrongGuesses: 1 },
  { name: "both prefixes", dialect: { prefixes: "both" }, wrongGuesses: 0 },
  { name: "signature hashes the body of writes", dialect: { signatureBody: "body" }, wrongGuesses: 1 },
  { name: "zone optional, none configured", dialect: { zone: "optional" }, wrongGuesses: 0, noZone: true },
  { name: "counts is the total, no total_sum", dialect: { counts: "total", totalSum: false }, wrongGuesses: 0, seed: 150 },
  { name: "counts is the page length, no total_sum", dialect: { counts: "page", totalSum: false }, wrongGuesses: 0, seed: 150 },
  { name: "no page cap", dialect: { maxPageSize: null }, wrongGuesses: 0, seed: 150 },
  { name: "bare date-times in UTC+8", dialect: { bareTimeZone: "+08:00" }, wrongGuesses: 0 },
  { name: "single-notebook writes answer an object", dialect: { singleWriteData: "object" }, wrongGuesses: 0 },
  { name: "single-notebook writes answer an array", dialect: { singleWriteData: "array" }, wrongGuesses: 0 },
  { name: "envs sent as a string", dialect: { envsAsString: true }, wrongGuesses: 0 },
  {
    name: "furthest from the default",
    dialect: { prefixes: "qai", signatureBody: "body", counts: "page", totalSum: false, bareTimeZone: "+08:00", singleWriteData: "object", envsAsString: true },
    wrongGuesses: 2,
    seed: 150,
  },
];

/** One row of the summary printed after the file: what each dialect cost. */
const summary: string[] = [];

describe("the dialect matrix through the real engine", () => {
  afterAll(() => {
    console.log(["", "Dialect matrix: extra requests per engine operation (up, preview, up, refresh, preview, destroy)", ...summary].join("\n"));
  });

  for (const c of cases) {
    it(`converges on: ${c.name}`, async () => {
      let emulator: Emulator | undefined;
      let target: TestStack | undefined;
      try {
        emulator = await startTestEmulator({ notebookReadyDelayMs: 100, dialect: c.dialect });
        const others = c.seed ? emulator.seedNotebooks({ namespace: user, count: c.seed, namePrefix: "someone-else" }) : [];
        const settings = { stopTime: "2030-01-01T18:00:00Z" };
        const config = emulatorConfig(emulator);
        if (c.noZone) delete config["aicp:zone"];
        target = await createTestStack({
          name: "dialect",
          config,
          program: (aicp) => {
            const group = new aicp.ResourceGroup("team", { skuId: "sku-gpu", podTypes: ["instance"], description: "dialect matrix" });
            const template = aicp
              .getResourceTemplatesOutput({ specType: ["common"] })
              .apply(smallestGpuTemplate);
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
          const log = emu.requests().filter((r) => r.operation !== "admin");
          costs.push(log.filter((r) => r.status === 401 || (r.status === 404 && r.retCode === undefined)).length);
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
        summary.push(`${c.name.padEnd(44)} ${costs.join(", ")}${c.noZone ? "   (aicp:zone unset)" : ""}`);
      } finally {
        await target?.dispose();
        await emulator?.close();
      }
    }, 300_000);
  }
});

describe("refresh with 250 notebooks in the namespace and counts equal to the page length", () => {
  it("keeps every notebook of the stack that lies beyond the first page", async () => {
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 100, dialect: { counts: "page", totalSum: false } });
    let target: TestStack | undefined;
    try {
      const others = emulator.seedNotebooks({ namespace: user, count: 250, namePrefix: "someone-else" });
      target = await createTestStack({
        name: "beyond-page",
        config: emulatorConfig(emulator),
        program: (aicp) => {
          const ids = ["a", "b", "c"].map(
            (n) =>
              new aicp.Notebook(`late-${n}`, {
                chargeMode: "elastic",
                duration: 3600,
                image: "jupyter/base-notebook:latest",
                imageType: "official",
                serverType: "jupyter",
                replicaSpecs: { specs: "sku-gpu-1", customGpu: 1 },
              }).id,
          );
          return { ids };
        },
      });
      await target.stack.up(recording(target));
      const ours = emulator.listNotebooks().filter((n) => !others.includes(String(n.uuid)));
      expect(ours).toHaveLength(3);

      emulator.clearRequests();
      const refresh = await target.stack.refresh(recording(target));
      expect(refresh.summary.resourceChanges?.delete ?? 0).toBe(0);
      const kept = resourcesOfType(await target.stack.exportStack(), "pulumi-nodejs:dynamic/aicp:Notebook").map((r) => r.id).sort();
      expect(kept).toEqual(ours.map((n) => String(n.uuid)).sort());
      // Each list answer held at most 100 notebooks, and the walk did not stop at the first full page.
      const lists = emulator.requests().filter((r) => r.operation === "listNotebooks");
      expect(lists.every((r) => Number(r.query?.limit) <= 100)).toBe(true);
      expect(lists.some((r) => Number(r.query?.offset) >= 200)).toBe(true);

      await target.stack.destroy(recording(target));
      expect(emulator.listNotebooks()).toHaveLength(250);
    } finally {
      await target?.dispose();
      await emulator.close();
    }
  }, 300_000);
});
