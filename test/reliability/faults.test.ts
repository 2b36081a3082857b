/**
 * The fault matrix through the real engine (its in-process run is
 * test/contract/fault-matrix.test.ts): the quickstart deployed and destroyed
 * while the emulator injects one kind of fault. Each run either
 * succeeds through retries or fails with an error naming the operation (and,
 * when the platform answered, the status and request id); the runs that
 * follow converge; the emulator never holds a duplicate, and nothing is left
 * behind after destroy.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { exampleStack } from "../support/examples";
import { recording, type TestStack } from "../support/pulumi";
import { attempt, faultCases, held } from "../support/fault-cases";
import { recordCase } from "../support/reliability";

/**
 * The one case run through the real engine: a failed create reaches the user
 * through the TypeScript SDK's dynamic provider and the CLI as one error
 * naming the operation, ret_code, message and request id. Every other case,
 * and this one, run in-process in test/contract/fault-matrix.test.ts.
 */
const cases = faultCases.filter((c) => c.name === "ret_code != 0 on create notebook");

/**
 * What a pipeline's next run must achieve: the stack holds exactly the one
 * group and one notebook the program declares, and destroy leaves nothing.
 * Returns the duplicates and orphans it counted.
 */
async function convergeThenDestroy(target: TestStack, emulator: () => Emulator): Promise<{ duplicates: number; orphans: number }> {
  await target.stack.refresh(recording(target));
  const refused = await attempt(() => target.stack.up(recording(target)));
  if (refused !== undefined) {
    // A create that never showed, past its window: the provider sends no second create and asks the user to
    // check the console and, if nothing is there, remove the record. The user does so, then runs up again.
    expect(refused).toContain("pulumi state delete");
    // What the user checks in the console: the object the message names is not there.
    const named = /the create of (notebook|resource group) '([^']+)'/.exec(refused);
    expect(named, refused).not.toBeNull();
    const { notebooks, groups } = held(emulator());
    expect(
      (named![1] === "notebook" ? notebooks : groups).filter((o) => o.name === named![2]),
      refused,
    ).toEqual([]);
    await forgetUnconfirmed(target);
    await target.stack.up(recording(target));
  }
  const { notebooks, groups } = held(emulator());
  const duplicates = Math.max(0, notebooks.length - 1) + Math.max(0, groups.length - 1);
  expect(notebooks).toHaveLength(1);
  expect(groups).toHaveLength(1);
  expect((await target.stack.outputs()).notebookId!.value).toBe(notebooks[0]!.uuid);
  await target.stack.destroy(recording(target));
  const left = held(emulator());
  return { duplicates, orphans: left.notebooks.length + left.groups.length };
}

/** What `pulumi state delete <urn>` does to each record of an unconfirmed create. */
async function forgetUnconfirmed(target: TestStack): Promise<void> {
  const exported = await target.stack.exportStack();
  const deployment = exported.deployment as { resources?: Array<{ id?: string }> };
  deployment.resources = (deployment.resources ?? []).filter((r) => !String(r.id ?? "").startsWith("unconfirmed-create-"));
  await target.stack.importStack(exported);
}

describe("fault matrix", () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
  });

  for (const c of cases) {
    it(`${c.phase}: ${c.name}`, async () => {
      const emulator = await startTestEmulator();
      let duplicates = 0;
      let orphans = 0;
      let passed = false;
      try {
        // A dropped create is waited for this long before the user is asked to check (provider/create-once.ts).
        const target = await exampleStack("quickstart", emulator, {}, { AICP_UNCONFIRMED_CREATE_WINDOW_MS: "8000" });
        stacks.push(target);
        await target.stack.setConfig("aicp:requestTimeoutSeconds", { value: "1" });
        if (c.phase === "destroy") await target.stack.up(recording(target));

        for (const fault of c.faults) emulator.addFault(fault);
        const failure = await attempt(() => (c.phase === "up" ? target.stack.up(recording(target)) : target.stack.destroy(recording(target))));
        emulator.clearFaults();
        if (c.outcome === "succeeds") expect(failure, failure).toBeUndefined();
        else {
          expect(failure, "the faulted run should fail").toBeDefined();
          for (const fact of c.mentions ?? []) expect(failure).toMatch(fact);
        }

        // Converge, as a pipeline's next run would.
        if (c.phase === "up") {
          ({ duplicates, orphans } = await convergeThenDestroy(target, () => emulator));
        } else {
          await target.stack.refresh(recording(target));
          await target.stack.destroy(recording(target));
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
    }, 240_000);
  }
});
