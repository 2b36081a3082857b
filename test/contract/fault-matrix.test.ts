/**
 * The fault matrix in-process: the quickstart deployed and destroyed through
 * the in-process engine (test/support/engine/stack.ts: the plugin's gRPC
 * service, one fresh copy per command) while the emulator injects one kind of
 * fault. Each run either succeeds through retries or fails with an error
 * naming the operation (and, when the platform answered, the status and
 * request id); the runs that follow converge as a pipeline's next run would;
 * the emulator never holds a duplicate, and nothing is left after destroy.
 * What only the real engine shows (the CLI's output, the TypeScript SDK's
 * dynamic provider) is test/reliability/faults.test.ts's one case.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { emulatorStack, quickstart } from "../support/engine/programs";
import type { InProcessStack } from "../support/engine/stack";
import { attempt, faultCases, held } from "../support/fault-cases";
import { recordCase } from "../support/reliability";

/**
 * What a pipeline's next run must achieve: the stack holds exactly the one
 * group and one notebook the program declares, and destroy leaves nothing.
 * Returns the duplicates and orphans it counted.
 */
async function convergeThenDestroy(stack: InProcessStack, emulator: () => Emulator): Promise<{ duplicates: number; orphans: number }> {
  await stack.refresh();
  let refused = await attempt(() => stack.up(quickstart()));
  // Within the window the provider asks for a later run, naming until when: the pipeline runs again then.
  const until = refused && /may appear \(until ([^)]+)\)\. Run the command again later/.exec(refused);
  if (until) {
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(until[1]!) - Date.now()) + 50));
    refused = await attempt(() => stack.up(quickstart()));
  }
  if (refused !== undefined) {
    // A create that never showed, past its window: the provider sends no second create and asks the user to
    // check the console and, if nothing is there, remove the record. The user does so, then runs up again.
    expect(refused).toContain("pulumi state delete");
    const named = /the create of (notebook|resource group) '([^']+)'/.exec(refused);
    expect(named, refused).not.toBeNull();
    const { notebooks, groups } = held(emulator());
    expect(
      (named![1] === "notebook" ? notebooks : groups).filter((o) => o.name === named![2]),
      refused,
    ).toEqual([]);
    stack.stateDelete((r) => r.id.startsWith("unconfirmed-create-"));
    await stack.up(quickstart());
  }
  const { notebooks, groups } = held(emulator());
  const duplicates = Math.max(0, notebooks.length - 1) + Math.max(0, groups.length - 1);
  expect(notebooks).toHaveLength(1);
  expect(groups).toHaveLength(1);
  expect(stack.outputs.notebookId).toBe(notebooks[0]!.uuid);
  await stack.destroy();
  const left = held(emulator());
  return { duplicates, orphans: left.notebooks.length + left.groups.length };
}

describe("fault matrix (in-process engine)", () => {
  for (const c of faultCases) {
    it(`${c.phase}: ${c.name}`, async () => {
      const emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
      let duplicates = 0;
      let orphans = 0;
      let passed = false;
      try {
        // A create whose answer is lost is watched for 3 s (more than the 2.5 s latency case), and expected for 4 s
        // after it was sent before the user is asked to check (provider/timing.ts).
        const stack = emulatorStack(emulator, {
          extraConfig: { requestTimeoutSeconds: "0.5" },
          timings: { unconfirmedCreateWindowMs: 4000, createWatchMs: 3000 },
        });
        if (c.phase === "destroy") await stack.up(quickstart());

        for (const fault of c.faults) emulator.addFault(fault);
        const failure = await attempt(() => (c.phase === "up" ? stack.up(quickstart()) : stack.destroy()));
        emulator.clearFaults();
        if (c.outcome === "succeeds") expect(failure, failure).toBeUndefined();
        else {
          expect(failure, "the faulted run should fail").toBeDefined();
          for (const fact of c.mentions ?? []) expect(failure).toMatch(fact);
        }

        if (c.phase === "up") {
          ({ duplicates, orphans } = await convergeThenDestroy(stack, () => emulator));
        } else {
          await stack.refresh();
          await stack.destroy();
          const left = held(emulator);
          orphans = left.notebooks.length + left.groups.length;
        }
        expect(duplicates).toBe(0);
        expect(orphans).toBe(0);
        passed = true;
      } finally {
        recordCase({ suite: "faults", name: `${c.phase}: ${c.name}`, passed, duplicates, orphans, leaks: 0 });
        await emulator.close();
      }
    }, 60_000);
  }

  it("up: the emulator restarted mid-up, its state kept in a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aicp-restart-"));
    const stateFile = join(dir, "emulator.json");
    let emulator = await startTestEmulator({ stateFile, notebookReadyDelayMs: 300 });
    const port = emulator.port;
    let passed = false;
    let duplicates = 0;
    let orphans = 0;
    try {
      const stack = emulatorStack(emulator, {
        extraConfig: { requestTimeoutSeconds: "0.5" },
        timings: { unconfirmedCreateWindowMs: 4000, createWatchMs: 3000 },
      });
      const up = attempt(() => stack.up(quickstart()));
      // Restart as soon as the notebook create has been answered, while the provider waits for it.
      for (let i = 0; i < 600 && !emulator.requests().some((r) => r.operation === "createNotebook" && r.status === 200); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      await emulator.close();
      emulator = await startTestEmulator({ stateFile, port, notebookReadyDelayMs: 50 });
      await up;
      ({ duplicates, orphans } = await convergeThenDestroy(stack, () => emulator));
      expect(duplicates).toBe(0);
      expect(orphans).toBe(0);
      passed = true;
    } finally {
      recordCase({ suite: "faults", name: "up: emulator restarted mid-up", passed, duplicates, orphans, leaks: 0 });
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
