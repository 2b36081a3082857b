/**
 * The platform on a bad day (emulator/misbehaviour.ts, faults), through the
 * real engine: list answers that omit a notebook, pages that shift while
 * another user deletes, creates that outlive the request and show late or
 * never, hard kills mid-create, and names held by others. Each case counts
 * what a user would pay for: duplicates, orphans, notebooks dropped from the
 * state while live, and objects of others taken over.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { cliProject, cliStack, type CliProject } from "../support/cli-project";
import { emulatorCredentials, emulatorZone, requestsInFlight, startTestEmulator } from "../support/emulator";
import { descendantsOf, killAll } from "../support/processes";
import { recordCase } from "../support/reliability";
import { signedRequest } from "../support/signed-request";

const user = emulatorCredentials.userId;
const namespace = user.toLowerCase();
const notebookType = "pulumi-nodejs:dynamic/aicp:Notebook";

const notebookArgs = (extra = "") =>
  `{ chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2 }${extra} }`;

const oneNotebook = (extra = "") => `
const aicp = require("pulumi-aicp");
const nb = new aicp.Notebook("research", ${notebookArgs(extra)});
exports.uuid = nb.uuid;
`;

interface Case {
  emulator: Emulator;
  project: CliProject;
  up(...args: string[]): Promise<{ status: number | null; output: string }>;
  pulumi(...args: string[]): Promise<{ status: number | null; output: string }>;
  /** Notebooks of our namespace the platform holds (listed or not), not being deleted. */
  live(): Array<Record<string, unknown>>;
  /** Ids of the notebooks the stack's state records. */
  recorded(): Promise<string[]>;
  creates(): number;
}

describe("a misbehaving platform", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  async function setUp(name: string, program: string, env: Record<string, string> = {}, readyDelayMs = 200): Promise<Case> {
    const emulator = await startTestEmulator({ notebookReadyDelayMs: readyDelayMs });
    cleanups.push(() => emulator.close());
    const { project, pulumi } = await cliStack(name, emulator, program, env);
    cleanups.push(() => project.dispose());
    return {
      emulator,
      project,
      pulumi,
      up: (...args) => pulumi("up", ...args),
      live: () => emulator.listNotebooks().filter((n) => n.namespace === namespace && !isExpired(n.auto_delete_time)),
      recorded: async () => {
        const out = await project.run("pulumi", "stack", "export", "--stack", "ci");
        const deployment = JSON.parse(out.output.slice(out.output.indexOf("{"))).deployment as { resources?: Array<{ type: string; id?: string }> };
        return (deployment.resources ?? []).filter((r) => r.type === notebookType).map((r) => String(r.id));
      },
      creates: () => emulator.requests().filter((r) => r.operation === "createNotebook").length,
    };
  }

  /** Runs a case and records its row, whatever happens. */
  async function run(name: string, body: (row: { duplicates: number; orphans: number; dropped: number; taken: number }) => Promise<void>): Promise<void> {
    const row = { duplicates: 0, orphans: 0, dropped: 0, taken: 0 };
    let passed = false;
    try {
      await body(row);
      passed = true;
    } finally {
      recordCase({ suite: "misbehaving", name, passed, ...row, leaks: 0 });
    }
  }

  it("destroy when three list answers in a row omit the notebook: it stops and deletes it", () =>
    run("destroy, list omits the notebook", async (row) => {
      const c = await setUp("omit-destroy", oneNotebook());
      expect((await c.up()).status).toBe(0);
      const [nb] = c.live();
      c.emulator.misbehave({ omit: { name: String(nb!.name), answers: 3 } });
      c.emulator.clearRequests();
      const destroy = await c.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      const sent = c.emulator.requests().map((r) => r.operation);
      expect(sent).toContain("stopNotebooks");
      expect(sent).toContain("setDeleteTime");
      row.dropped = c.live().length;
      expect(c.live()).toEqual([]);
    }), 120_000);

  it("refresh when three list answers in a row omit the notebook: the state keeps it", () =>
    run("refresh, list omits the notebook", async (row) => {
      const c = await setUp("omit-refresh", oneNotebook());
      expect((await c.up()).status).toBe(0);
      const [nb] = c.live();
      c.emulator.misbehave({ omit: { name: String(nb!.name), answers: 3 } });
      const refresh = await c.pulumi("refresh");
      expect(refresh.status, refresh.output).toBe(0);
      row.dropped = (await c.recorded()).includes(String(nb!.uuid)) ? 0 : 1;
      expect(await c.recorded()).toEqual([nb!.uuid]);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 120_000);

  it("pages shift while another user deletes, counts are page lengths, 100 others come first: up, refresh and destroy keep track", () =>
    run("pages shift, counts = page", async (row) => {
      const c = await setUp("shift", oneNotebook(', stopTime: "2031-01-01T00:00:00Z"'));
      c.emulator.setDialect({ counts: "page", totalSum: false });
      c.emulator.seedNotebooks({ namespace, count: 100, namePrefix: "other" });
      expect((await c.up()).status).toBe(0);
      const mine = c.live().find((n) => String(n.name).startsWith("research-"))!;
      // From now on, each first page is followed by another user's delete: ours, 101st, shifts onto page 1 after it was read.
      c.emulator.misbehave({ shiftPages: "delete" });
      const refresh = await c.pulumi("refresh");
      expect(refresh.status, refresh.output).toBe(0);
      row.dropped = (await c.recorded()).includes(String(mine.uuid)) ? 0 : 1;
      expect(await c.recorded()).toEqual([mine.uuid]);
      const destroy = await c.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      row.orphans = c.live().filter((n) => n.uuid === mine.uuid).length;
      expect(row.orphans).toBe(0);
    }), 180_000);

  it("counts claiming a million notebooks: every walk is bounded by what the pages show", () =>
    run("absurd counts", async (row) => {
      const c = await setUp("absurd", oneNotebook());
      c.emulator.seedNotebooks({ namespace, count: 5, namePrefix: "other" });
      c.emulator.misbehave({ claimedCount: 1_000_000 });
      const listed = () => c.emulator.requests().filter((r) => r.operation === "listNotebooks");
      const counts: number[] = [];
      let furthest = 0;
      for (const command of [["up"], ["refresh"], ["destroy"]]) {
        c.emulator.clearRequests();
        const result = await c.pulumi(...command);
        expect(result.status, result.output).toBe(0);
        counts.push(listed().length);
        furthest = Math.max(furthest, ...listed().map((r) => Number(r.query?.offset ?? 0)));
      }
      console.log(`absurd counts: list requests per up, refresh, destroy: ${counts.join(", ")}; furthest offset asked: ${furthest}`);
      // Everything fits on the first page; a walk that believed counts would go on to offset 999,900.
      // Each walk may confirm a short page once (offset 100); none goes further.
      expect(furthest).toBeLessThanOrEqual(100);
      row.orphans = c.live().filter((n) => String(n.name).startsWith("research-")).length;
      expect(row.orphans).toBe(0);
    }), 120_000);

  it("a new notebook the list shows only 3 s after its create (ordinary lag): up waits it out instead of calling it disappeared", () =>
    run("new notebook listed late", async (row) => {
      const c = await setUp("lag", oneNotebook());
      c.emulator.misbehave({ listDelayMs: 3000 });
      const up = await c.up();
      expect(up.status, up.output).toBe(0);
      expect(c.creates()).toBe(1);
      row.duplicates = c.live().length - 1;
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 120_000);

  it("a create that outlives the request timeout and is listed 12 s late: rerunning up sends no second create", () =>
    run("slow create, rerun up", async (row) => {
      const c = await setUp("slow-create", oneNotebook(", readyTimeoutSeconds: 4"), { AICP_REQUEST_TIMEOUT_SECONDS: "1" });
      c.emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 2500, count: 1 });
      c.emulator.misbehave({ listDelayMs: 12_000 });
      const first = await c.up();
      expect(first.status, first.output).not.toBe(0);
      expect(first.output).toContain("unconfirmed");
      // The provider's advice: run `pulumi up` again. Until the platform lists the notebook that sends no
      // create and fails; once it does, up adopts it. However many runs that takes, one create in all.
      const runs = [first];
      while (runs.at(-1)!.status !== 0 && runs.length < 6) {
        runs.push(await c.up());
        expect(c.creates()).toBe(1);
        if (runs.at(-1)!.status !== 0) expect(runs.at(-1)!.output).toContain("still unconfirmed");
      }
      expect(runs.at(-1)!.status, runs.at(-1)!.output).toBe(0);
      console.log(`slow create, rerun up: ${c.creates()} create request(s) for 1 notebook after ${runs.length} runs of up`);
      expect(c.creates()).toBe(1);
      row.duplicates = c.live().length - 1;
      expect(c.live()).toHaveLength(1);
      expect(await c.recorded()).toHaveLength(1);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 180_000);

  it("a create the list never shows: refresh then up, twice, sends one create and keeps the notebook recorded", () =>
    run("create never listed, refresh + up x2", async (row) => {
      const c = await setUp("never-listed", oneNotebook(", readyTimeoutSeconds: 2"), { AICP_REQUEST_TIMEOUT_SECONDS: "1" });
      c.emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 1500, count: 1 });
      c.emulator.misbehave({ listDelayMs: 3_600_000 });
      expect((await c.up()).status).not.toBe(0);
      for (let i = 0; i < 2; i++) {
        const refresh = await c.pulumi("refresh");
        expect(refresh.status, refresh.output).toBe(0);
        expect(await c.recorded()).toHaveLength(1);
        expect((await c.up()).status).not.toBe(0);
      }
      console.log(`create never listed: ${c.creates()} create request(s) after 1 up and 2 cycles of refresh + up`);
      expect(c.creates()).toBe(1);
      row.duplicates = c.live().length - 1;
      // The platform catches up: the next up adopts it and destroy removes it.
      c.emulator.clearMisbehaviour();
      const up = await c.up();
      expect(up.status, up.output).toBe(0);
      expect(c.creates()).toBe(1);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 240_000);

  it("two stacks of one project and stack name in two backends each get their own notebook; destroying one leaves the other", () =>
    run("same stack name, two backends", async (row) => {
      const a = await setUp("twin", oneNotebook());
      const b = cliProject("twin", a.emulator, oneNotebook());
      cleanups.push(() => b.dispose());
      expect((await b.run("pulumi", "stack", "init", "ci", "--non-interactive")).status).toBe(0);
      expect((await a.up()).status).toBe(0);
      const upB = await b.run("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      expect(upB.status, upB.output).toBe(0);
      const [idA] = await a.recorded();
      expect(a.live()).toHaveLength(2);
      expect((await a.pulumi("destroy")).status).toBe(0);
      const left = a.live().map((n) => n.uuid);
      row.taken = left.length === 1 && left[0] !== idA ? 0 : 1;
      expect(left).toHaveLength(1);
      expect(left[0]).not.toBe(idA);
      expect((await b.run("pulumi", "destroy", "--yes", "--non-interactive", "--stack", "ci")).status).toBe(0);
      row.orphans = a.live().length;
      expect(row.orphans).toBe(0);
    }), 180_000);

  it("two resources named worker (each beside a group) under different parents get one notebook each; removing one leaves the other's", () =>
    run("same name, two parents", async (row) => {
      const program = (teams: string[]) => `
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");
for (const team of ${JSON.stringify(teams)}) {
  const parent = new pulumi.ComponentResource("team:" + team + ":Team", team, {});
  // Siblings under one parent: neither may wait for the other.
  new aicp.ResourceGroup("pool", { skuId: "sku-1", podTypes: ["instance"] }, { parent });
  new aicp.Notebook("worker", ${notebookArgs()}, { parent });
}
`;
      const c = await setUp("parents", program(["a", "b"]));
      expect((await c.up()).status).toBe(0);
      expect(c.live()).toHaveLength(2);
      const groups = () => c.emulator.listResourceGroups().filter((g) => g.user_id === user);
      expect(groups()).toHaveLength(2);
      const before = await c.recorded();
      const { writeFileSync } = await import("node:fs");
      writeFileSync(`${c.project.dir}/index.js`, program(["a"]));
      const up = await c.up();
      expect(up.status, up.output).toBe(0);
      const kept = await c.recorded();
      expect(kept).toHaveLength(1);
      row.taken = c.live().some((n) => n.uuid === kept[0]) ? 0 : 1;
      expect(c.live().map((n) => n.uuid)).toEqual(kept);
      expect(before).toContain(kept[0]);
      expect(groups()).toHaveLength(1);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length + groups().length;
      expect(row.orphans).toBe(0);
    }), 180_000);

  it("a pinned group name someone made by hand is refused, even when the create's answer would be lost, and their group is left as it was", () =>
    run("pinned group name held by hand", async (row) => {
      const program = `
const aicp = require("pulumi-aicp");
new aicp.ResourceGroup("pool", { name: "gpu-pool", skuId: "sku-1", podTypes: ["instance"] });
`;
      const c = await setUp("hand-group", program, { AICP_REQUEST_TIMEOUT_SECONDS: "1" });
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
      c.emulator.addFault({ kind: "latency", operation: "createResourceGroup", latencyMs: 2000 });
      c.emulator.clearRequests();
      const up = await c.up();
      expect(up.status, up.output).not.toBe(0);
      expect(up.output).toContain(String(before[0]!.rg_id));
      expect(up.output).toContain("does not carry this resource's mark");
      const touched = c.emulator.requests().filter((r) => ["createResourceGroup", "updateResourceGroup", "deleteResourceGroup"].includes(String(r.operation)));
      row.taken = touched.length + (JSON.stringify(theirs()) === JSON.stringify(before) ? 0 : 1);
      expect(touched).toEqual([]);
      expect(theirs()).toEqual(before);
    }), 120_000);

  it("a replacement forced with --replace deletes the old notebook first and never adopts it (it carries the same name and mark)", () =>
    run("forced replacement", async (row) => {
      const c = await setUp("replace", oneNotebook());
      expect((await c.up()).status).toBe(0);
      const [old] = await c.recorded();
      const out = await c.project.run("pulumi", "stack", "export", "--stack", "ci");
      const urn = (JSON.parse(out.output.slice(out.output.indexOf("{"))).deployment.resources as Array<{ type: string; urn: string }>).find((r) => r.type === notebookType)!.urn;
      const replaced = await c.up("--replace", urn);
      expect(replaced.status, replaced.output).toBe(0);
      const [now] = await c.recorded();
      expect(now).not.toBe(old);
      row.dropped = c.live().some((n) => n.uuid === now) ? 0 : 1;
      expect(c.live().map((n) => n.uuid)).toEqual([now]);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 120_000);

  for (const [victim, pinned] of [["pulumi", false], ["pulumi", true], ["provider", true]] as const) {
    const names = pinned ? "pinned names" : "auto-names";
    it(`kill -9 of ${victim === "pulumi" ? "pulumi" : "the provider process"} mid-create (${names}): the next up adopts the notebook and the group, destroy leaves nothing`, () =>
      run(`kill -9 ${victim} mid-create, ${pinned ? "pinned" : "auto"}`, async (row) => {
        const program = `
const aicp = require("pulumi-aicp");
const group = new aicp.ResourceGroup("team", { skuId: "sku-1", podTypes: ["instance"]${pinned ? ', name: "team-pinned"' : ""} });
new aicp.Notebook("research", ${notebookArgs(pinned ? ', name: "research-pinned"' : "")}, { dependsOn: [group] });
`;
        // Slow readiness: the create is answered, and pulumi then waits for Running.
        const c = await setUp(`kill-${victim}-${pinned ? "pinned" : "auto"}`, program, {}, 8000);
        const { child, done } = c.project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
        const started = Date.now();
        while (c.live().length < 1 && Date.now() - started < 60_000) await sleep(20);
        const family = descendantsOf(child.pid!);
        if (victim === "pulumi") child.kill("SIGKILL");
        else {
          const providers = family.filter((p) => p.args.includes("dynamic-provider"));
          expect(providers.length).toBeGreaterThan(0);
          for (const p of providers) process.kill(p.pid, "SIGKILL");
        }
        await done;
        // What a CI runner does to the rest of a killed job: nothing of this run lives on.
        killAll(family);
        await c.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
        const up = await c.up();
        expect(up.status, up.output).toBe(0);
        const groupCreates = c.emulator.requests().filter((r) => r.operation === "createResourceGroup").length;
        console.log(`kill -9 ${victim} mid-create (${pinned ? "pinned" : "auto"}): ${c.creates()} notebook create(s), ${groupCreates} group create(s) in all`);
        row.duplicates = c.live().length - 1 + c.emulator.listResourceGroups().filter((g) => g.user_id === user).length - 1;
        expect(c.creates()).toBe(1);
        expect(groupCreates).toBe(1);
        expect(c.live()).toHaveLength(1);
        expect((await c.pulumi("destroy")).status).toBe(0);
        row.orphans = c.live().length + c.emulator.listResourceGroups().filter((g) => g.user_id === user).length;
        expect(row.orphans).toBe(0);
      }), 180_000);
  }

  // Needs the engine: only a real kill -9 of pulumi and its plugins shows what the engine records (nothing) and what outlives them.
  it("kill -9 while the create is in flight, on a platform that lists new notebooks a minute late: the up right after sends no second create", () =>
    run("kill -9 mid-create, list a minute late", async (row) => {
      const c = await setUp("kill-lagging", oneNotebook());
      c.emulator.misbehave({ listDelayMs: 60_000 });
      c.emulator.addFault({ kind: "latency", operation: "createNotebook", latencyMs: 3000, count: 1 });
      const inFlight = () => requestsInFlight(c.emulator);
      const { child, done } = c.project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      const started = Date.now();
      // The lookups before the create answer at once; a request still open after them is the create.
      while (!(c.emulator.requests().some((r) => r.operation === "listNotebooks") && (await inFlight()) > 0) && Date.now() - started < 60_000) await sleep(20);
      const family = descendantsOf(child.pid!);
      child.kill("SIGKILL");
      await done;
      killAll(family);
      await c.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
      while (c.emulator.listNotebooks().filter((n) => n.namespace === namespace).length < 1 && Date.now() - started < 60_000) await sleep(50);
      const again = await c.up();
      console.log(`kill -9 mid-create, list a minute late: ${c.creates()} create request(s), ${c.live().length} notebook(s) after the next up (exit ${again.status})`);
      row.duplicates = c.live().length - 1;
      expect(c.creates()).toBe(1);
      expect(again.output).toContain("earlier run sent the create");
      // The platform lists it a minute later; the next up records it, destroy removes it.
      c.emulator.clock.advance(60_000);
      const up = await c.up();
      expect(up.status, up.output).toBe(0);
      expect(c.creates()).toBe(1);
      expect(await c.recorded()).toHaveLength(1);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(row.orphans).toBe(0);
    }), 180_000);

  it("kill -9 during a create that fails, then a fixed image: the Failed notebook is removed, not left behind", () =>
    run("kill -9 during a failing create", async (row) => {
      const c = await setUp("kill-failed", oneNotebook(', name: "trial"').replace("jupyter:1", "jupyter:does-not-exist"), {}, 4000);
      const { child, done } = c.project.start("pulumi", "up", "--yes", "--non-interactive", "--stack", "ci");
      const started = Date.now();
      while (c.live().length < 1 && Date.now() - started < 60_000) await sleep(20);
      const family = descendantsOf(child.pid!);
      child.kill("SIGKILL");
      await done;
      killAll(family);
      while (c.live()[0]?.status !== "Failed" && Date.now() - started < 60_000) await sleep(100);
      const { readFileSync, writeFileSync } = await import("node:fs");
      writeFileSync(`${c.project.dir}/index.js`, readFileSync(`${c.project.dir}/index.js`, "utf8").replace("jupyter:does-not-exist", "jupyter:1"));
      await c.project.run("pulumi", "cancel", "--yes", "--stack", "ci");
      const up = await c.up();
      expect(up.status, up.output).toBe(0);
      expect(c.live().map((n) => n.status)).toEqual(["Running"]);
      expect(c.creates()).toBe(2);
      expect((await c.pulumi("destroy")).status).toBe(0);
      row.orphans = c.live().length;
      expect(c.live()).toEqual([]);
    }), 180_000);
});

function isExpired(autoDeleteTime: unknown): boolean {
  return typeof autoDeleteTime === "string" && autoDeleteTime !== "" && Date.parse(autoDeleteTime.endsWith("Z") ? autoDeleteTime : `${autoDeleteTime}Z`) <= Date.now();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
