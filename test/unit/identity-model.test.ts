/**
 * The identity protocol (docs/identity.md) over generated pipeline histories: fast-check commands run
 * `pulumi up`, `destroy` and replacements of one resource on several runners, each a provider process
 * of its own with its own create journal on disk, against a platform held in memory by the model
 * (its lists lag, answers are lost, runs are killed with a create in flight, a colleague copies the
 * mark, a runner starts empty). Commands are minutes apart on a faked clock (Date only), so creation
 * times tell a create from an older copy as they do on the platform. The code under test is the provider's create path as the engine calls
 * it: createOnce inside settledOnReturn, then otherCreates (convergence), resolveProvisional for an unconfirmed record. The model
 * (state, platform, invariants) and its commands are written in test/support/identity-model/ and import nothing of it.
 *
 * Invariants, after every command: no object of a colleague is recorded or deleted; every id the
 * state records is live. After convergence (lists caught up, then `up` on a runner): where no
 * evidence was lost (docs/identity.md, "Open"), the state records the one live object of the resource.
 *
 *   npm run test:model                      the long run: 10,000 histories, seed printed
 *   AICP_MODEL_RUNS=N AICP_MODEL_SEED=S     another budget, or a replay
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commands, converged } from "../support/identity-model/commands";
import { RUNNERS, World, type Front, type Process, type Runner } from "../support/identity-model/world";

const runs = Number(process.env.AICP_MODEL_RUNS ?? 150);
const seed = process.env.AICP_MODEL_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.AICP_MODEL_SEED);

describe("the identity protocol over generated pipeline histories", () => {
  const root = mkdtempSync(join(tmpdir(), "aicp-model-"));
  const runners: Runner[] = [];
  const saved = process.env.AICP_CREATE_JOURNAL_DIR;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let i = 0; i < RUNNERS; i++) {
      const dir = join(root, `runner-${i}`);
      process.env.AICP_CREATE_JOURNAL_DIR = dir;
      const load = async (front: Front): Promise<Process> => {
        vi.resetModules();
        (await import("../../provider/timing")).useTimings({ pollIntervalMs: 1 });
        const journal = await import("../../provider/create-journal");
        if (front === "typescript") journal.seesEveryRecord();
        return { once: await import("../../provider/create-once"), journal, errors: await import("../../client/errors") };
      };
      runners.push({ dir, typescript: await load("typescript"), plugin: await load("plugin"), "autonamed plugin": await load("autonamed plugin") });
    }
  });
  afterAll(() => {
    vi.useRealTimers();
    process.env.AICP_CREATE_JOURNAL_DIR = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it(`holds its invariants in ${runs} histories (seed ${seed})`, async () => {
    console.log(`identity model: ${runs} histories, seed ${seed} (replay: AICP_MODEL_SEED=${seed})`);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (history) => {
        for (const r of runners) rmSync(r.dir, { recursive: true, force: true });
        const world = new World();
        await fc.asyncModelRun(() => ({ model: world, real: runners }), history);
        await converged(world, runners);
      }),
      { numRuns: runs, seed },
    );
    expect(runs).toBeGreaterThan(0);
  }, 600_000);
});
