/**
 * Names on a misbehaving platform, through the in-process engine
 * (test/support/engine/stack.ts): one name in two stacks (two backends), in
 * two parents, held by someone's hand-made group, and kept by a forced
 * replacement. The plugin derives each resource's auto-name and mark from its
 * URN and its provider instance's random id (plugin/identity.ts), so two
 * stacks are two provider instances and two parents two URNs. Each case
 * counts what a user would pay for: objects of others taken over, notebooks
 * dropped while live, and orphans.
 */
import { describe, expect, it } from "vitest";
import { emulatorCredentials, emulatorZone } from "../support/emulator";
import type { Program } from "../support/engine/stack";
import { failed, research } from "../support/engine/notebook-stack";
import { misbehaving, misbehavingCases, notebookInputs } from "../support/misbehaving-case";
import { signedRequest } from "../support/signed-request";

describe("names on a misbehaving platform (in-process engine)", () => {
  const cases = misbehavingCases();

  it("two stacks of one project and stack name in two backends each get their own notebook; destroying one leaves the other", () =>
    misbehaving("same stack name, two backends", async (row) => {
      const a = await cases.setUp();
      const b = a.twin();
      await a.stack.up(research());
      await b.up(research());
      const [idA] = a.recorded();
      expect(a.live()).toHaveLength(2);
      await a.stack.destroy();
      const left = a.live().map((n) => n.uuid);
      row.taken = left.length === 1 && left[0] !== idA ? 0 : 1;
      expect(left).toHaveLength(1);
      expect(left).toEqual(a.recorded(b));
      await b.destroy();
      row.orphans = a.live().length;
      expect(row.orphans).toBe(0);
    }));

  it("two resources named worker (each beside a group) under different parents get one notebook each; removing one leaves the other's", () =>
    misbehaving("same name, two parents", async (row) => {
      // Each team a component of its own type (team:a:Team), as `new pulumi.ComponentResource("team:" + team + ":Team", team)`.
      const program = (teams: string[]): Program => ({
        resources: teams.flatMap((team) => [
          {
            kind: "ResourceGroup" as const,
            name: "pool",
            key: `${team}-pool`,
            parent: `team:${team}:Team`,
            inputs: { skuId: "sku-1", podTypes: ["instance"] },
          },
          { kind: "Notebook" as const, name: "worker", key: `${team}-worker`, parent: `team:${team}:Team`, inputs: notebookInputs() },
        ]),
      });
      const c = await cases.setUp();
      await c.stack.up(program(["a", "b"]));
      expect(c.live()).toHaveLength(2);
      expect(c.groups()).toHaveLength(2);
      const before = c.recorded();
      await c.stack.up(program(["a"]));
      const kept = c.recorded();
      expect(kept).toHaveLength(1);
      row.taken = c.live().some((n) => n.uuid === kept[0]) ? 0 : 1;
      expect(c.live().map((n) => n.uuid)).toEqual(kept);
      expect(before).toContain(kept[0]);
      expect(c.stack.resources.map((r) => r.urn.split("::")[2])).toEqual(["team:a:Team$aicp:index:ResourceGroup", "team:a:Team$aicp:index:Notebook"]);
      expect(c.groups()).toHaveLength(1);
      await c.stack.destroy();
      row.orphans = c.live().length + c.groups().length;
      expect(row.orphans).toBe(0);
    }));

  it("a pinned group name someone made by hand is refused, even when the create's answer would be lost, and their group is left as it was", () =>
    misbehaving("pinned group name held by hand", async (row) => {
      const c = await cases.setUp({ stack: { extraConfig: { requestTimeoutSeconds: "0.5" } } });
      const made = await signedRequest(c.emulator.url, {
        method: "POST",
        path: "/aicp/resource/resource_group",
        query: { zone: emulatorZone },
        accessKeyId: emulatorCredentials.accessKeyId,
        secretAccessKey: emulatorCredentials.secretAccessKey,
        body: { name: "gpu-pool", description: "made by hand", sku_id: "sku-1", pod_type: ["job"], customize_enable: 0 },
        bodyHash: "empty",
      });
      expect(made.status, made.text).toBe(200);
      const theirs = () => c.emulator.listResourceGroups().filter((g) => g.name === "gpu-pool");
      const before = theirs();
      c.emulator.addFault({ kind: "latency", operation: "createResourceGroup", latencyMs: 1000 });
      c.emulator.clearRequests();
      const up = await failed(
        c.stack.up({ resources: [{ kind: "ResourceGroup", name: "pool", inputs: { name: "gpu-pool", skuId: "sku-1", podTypes: ["instance"] } }] }),
      );
      expect(up.message).toContain(String(before[0]!.rg_id));
      expect(up.message).toContain("does not carry this resource's mark");
      const touched = c.emulator.requests().filter((r) => ["createResourceGroup", "updateResourceGroup", "deleteResourceGroup"].includes(String(r.operation)));
      row.taken = touched.length + (JSON.stringify(theirs()) === JSON.stringify(before) ? 0 : 1);
      expect(touched).toEqual([]);
      expect(theirs()).toEqual(before);
      expect(c.stack.resources).toEqual([]);
    }));

  it("a replacement forced with --replace deletes the old notebook first and never adopts it (it carries the same name and mark)", () =>
    misbehaving("forced replacement", async (row) => {
      const c = await cases.setUp();
      // deleteBeforeReplace, as the TypeScript SDK sets it on every resource (sdk/forward.ts).
      const program: Program = { resources: research().resources.map((r) => ({ ...r, deleteBeforeReplace: true })) };
      await c.stack.up(program);
      const [old] = c.recorded();
      await c.stack.up(program, { replace: ["research"] });
      const [now] = c.recorded();
      expect(now).not.toBe(old);
      expect(c.sent("createNotebook")).toBe(2);
      row.dropped = c.live().some((n) => n.uuid === now) ? 0 : 1;
      expect(c.live().map((n) => n.uuid)).toEqual([now]);
      await c.stack.destroy();
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }));

  it(
    "a replacement forced with --replace without deleteBeforeReplace (a YAML or Python program: the engine creates first) is refused, and the recorded " +
      "notebook is left as it was",
    () =>
      misbehaving("forced replacement, create first", async (row) => {
        const c = await cases.setUp();
        await c.stack.up(research());
        const [old] = c.recorded();
        c.emulator.clearRequests();
        const refused = await failed(c.stack.up(research(), { replace: ["research"] }));
        // The new object would carry the old one's name and mark: the provider neither adopts it nor sends a create.
        expect(refused.message).toContain(old);
        // What the user does about it: the error names the resource option that makes the engine delete first.
        expect(refused.message).toMatch(/pulumi up --replace.*deleteBeforeReplace: true/s);
        expect(c.sent("createNotebook")).toBe(0);
        row.taken = c.sent("stopNotebooks") + c.sent("setDeleteTime");
        expect(row.taken).toBe(0);
        row.dropped = c.recorded().includes(old!) ? 0 : 1;
        expect(c.recorded()).toEqual([old]);
        expect(c.live().map((n) => [n.uuid, n.status])).toEqual([[old, "Running"]]);
        await c.stack.destroy();
        row.orphans = c.live().length;
        expect(row.orphans).toBe(0);
      }),
  );
});
