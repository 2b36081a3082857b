/**
 * `pulumi-aicp doctor` as a user runs it: the built command in its own
 * process, configured by environment variables, against the emulator in each
 * dialect; and the three first-contact failures, one line each. In the engine
 * project because it runs what `npm test` built (dist/), the plugin's
 * executable script included; `npm run test:fast` then needs no build.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_DIALECT, type Emulator } from "../../emulator";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

const cli = resolve(__dirname, "../../dist/cli/index.js");

interface Run {
  code: number;
  out: string;
}

const plugin = resolve(__dirname, "../../bin/pulumi-resource-aicp");

/** Runs the doctor asynchronously (the emulator answers from this process), as `npx pulumi-aicp doctor` or through the plugin. */
async function doctor(env: Record<string, string | undefined>, command: string[] = [process.execPath, cli]): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(AICP_|QY_|CORESHUB_)/.test(k)));
  try {
    const [file, ...args] = command;
    const { stdout } = await promisify(execFile)(file!, [...args, "doctor"], {
      env: { ...clean, PULUMI_AICP_NODE: process.execPath, ...env },
      timeout: 60_000,
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    return { code: e.code ?? -1, out: e.stdout ?? "" };
  }
}

const line = (out: string, check: string) => out.split("\n").find((l) => l.slice(6).startsWith(check)) ?? "";
/** A line of the table as its three cells: verdict, check, text. */
const cells = (out: string, check: string) => line(out, check).split(/ {2,}/);

describe("pulumi-aicp doctor", () => {
  let emulator: Emulator;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startTestEmulator({
      credentials: [emulatorCredentials, { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" }],
    });
    env = {
      AICP_BASE_URL: emulator.url,
      QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      CORESHUB_USER_ID: emulatorCredentials.userId,
      AICP_ZONE: "xb3",
    };
  });
  afterAll(() => emulator?.close());
  beforeEach(() => {
    emulator.setDialect({ ...DEFAULT_DIALECT, absentOperations: [] });
    emulator.clearRequests();
  });

  it("reports every check ok on the default dialect, changes nothing, and exits 0", async () => {
    const before = JSON.stringify(emulator.listNotebooks());
    const run = await doctor(env);
    expect(run.code).toBe(0);
    expect(line(run.out, "path prefix")).toMatch(/^ok .*\/aicp served; \/qai\/aicp: gateway answer/);
    expect(line(run.out, "zone")).toMatch(/^ok .*xb3 accepted; the platform requires a zone/);
    expect(line(run.out, "signature of writes")).toMatch(/^ok .*accepts MD5 of the empty string \(/);
    expect(line(run.out, "paging totals")).toMatch(/total_sum \d+, counts 1 for a page of 1 \(the page length\)/);
    for (const route of ["getResourceGroup", "listResourceGroups", "deleteResourceGroup"]) expect(line(run.out, `route ${route}`)).toMatch(/^ok /);
    expect(run.out).not.toContain(emulatorCredentials.secretAccessKey);
    expect(JSON.stringify(emulator.listNotebooks())).toBe(before);
    expect(emulator.requests().filter((r) => r.method !== "GET" && r.status === 200)).toEqual([]);
  });

  it("finds /qai/aicp and says the line that saves the extra request", async () => {
    emulator.setDialect({ prefixes: "qai" });
    const run = await doctor(env);
    expect(run.code).toBe(0);
    expect(line(run.out, "path prefix")).toMatch(/^note .*\/qai\/aicp served; \/aicp: gateway answer/);
    expect(run.out).toContain("pulumi config set aicp:pathPrefix /qai/aicp");
  });

  it("finds that writes must hash the body", async () => {
    emulator.setDialect({ signatureBody: "body" });
    const run = await doctor(env);
    expect(line(run.out, "signature of writes")).toMatch(/^note .*accepts MD5 of the body \(/);
    expect(run.out).toContain("pulumi config set aicp:signatureBody body");
  });

  it("fails a configured convention the platform refuses", async () => {
    const run = await doctor({ ...env, AICP_SIGNATURE_BODY: "body" });
    expect(run.code).toBe(1);
    expect(line(run.out, "signature of writes")).toMatch(/^fail .*the configured body is refused/);
  });

  it("says when counts is a total and when there is no total_sum", async () => {
    emulator.setDialect({ counts: "total", totalSum: false });
    const run = await doctor(env);
    expect(line(run.out, "paging totals")).toMatch(/no total_sum, counts \d+ for a page of 1 \(a total\)/);
  });

  it("sees pages capped below what was asked", async () => {
    emulator.setDialect({ maxPageSize: 10 });
    const run = await doctor(env);
    expect(line(run.out, "paging totals")).toMatch(/pages capped at 10;/);
  });

  it("does not take a busy platform as proof of the signature convention", async () => {
    emulator.addFault({ kind: "http", status: 503, operation: "stopNotebooks", count: 1 });
    const run = await doctor(env);
    emulator.clearFaults();
    expect(line(run.out, "signature of writes")).toMatch(/^note .*not determined: the probe was answered HTTP 503; run the doctor again/);
  });

  it("refuses a route override that names no group in one line, before any request", async () => {
    const routes = JSON.stringify({ deleteResourceGroup: "DELETE /resource/resource_group" });
    const run = await doctor({ ...env, AICP_ROUTES: routes });
    expect(run.code).toBe(2);
    expect(run.out.trim().split("\n")).toEqual([expect.stringMatching(/^doctor: aicp:routes .*deleteResourceGroup path must use the placeholders \{rg_id\}/)]);
    expect(emulator.requests().filter((r) => r.operation !== "admin")).toEqual([]);
  });

  it("names an assumed route the platform does not serve, with the override to set", async () => {
    emulator.setDialect({ absentOperations: ["deleteResourceGroup"] });
    const run = await doctor(env);
    expect(run.code).toBe(1);
    expect(line(run.out, "route deleteResourceGroup")).toMatch(/^fail .*DELETE \/resource\/resource_group\/\{rg_id\} \(assumed\) is not served/);
    expect(line(run.out, "route getResourceGroup")).toMatch(/^ok /);
    expect(run.out).toContain("pulumi config set --path 'aicp:routes.deleteResourceGroup'");
  });

  it("reports zone optional, and a time zone written without suffix", async () => {
    emulator.setDialect({ zone: "optional", bareTimeZone: "+08:00" });
    emulator.seedNotebooks({ namespace: emulatorCredentials.userId, count: 1, namePrefix: "doctor" });
    const run = await doctor({ ...env, AICP_ZONE: undefined });
    expect(run.code).toBe(0);
    expect(line(run.out, "zone")).toMatch(/^ok .*not set; the platform answers without one/);
    expect(line(run.out, "time zone")).toMatch(/^note .*date-times come without a zone \(\d{4}-\d\d-\d\dT[\d:]+\)/);
  });

  it("says in one line that the platform cannot be reached", async () => {
    const run = await doctor({ ...env, AICP_BASE_URL: "http://127.0.0.1:9" });
    expect(run.code).toBe(2);
    expect(run.out.trim().split("\n")).toEqual([expect.stringMatching(/^doctor: cannot reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED; check aicp:baseUrl/)]);
  });

  it("says in one line that the keys are refused, without printing the secret", async () => {
    const run = await doctor({ ...env, QY_SECRET_ACCESS_KEY: "not-the-secret" });
    expect(run.code).toBe(2);
    expect(run.out.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^doctor: credentials refused \(HTTP 401.*check aicp:accessKeyId and aicp:secretAccessKey \(or QY_ACCESS_KEY_ID and QY_SECRET_ACCESS_KEY\)$/,
      ),
    ]);
    expect(run.out).not.toContain("not-the-secret");
  });

  it("says in one line that the zone is wrong, and when it is missing", async () => {
    const wrong = await doctor({ ...env, AICP_ZONE: "zz9" });
    expect(wrong.code).toBe(2);
    expect(wrong.out.trim().split("\n")).toEqual([expect.stringMatching(/^doctor: zone 'zz9' refused \(HTTP 400.*set aicp:zone/)]);
    const missing = await doctor({ ...env, AICP_ZONE: undefined });
    expect(missing.out.trim().split("\n")).toEqual([expect.stringMatching(/^doctor: zone required but not set \(HTTP 400.*set aicp:zone/)]);
  });

  it("names a user id of another account, and does not blame the key's permissions", async () => {
    const run = await doctor({ ...env, CORESHUB_USER_ID: "usr-other" });
    expect(run.code).toBe(1);
    expect(cells(run.out, "user id")).toEqual([
      "fail",
      "user id",
      `user id 'usr-other' refused (HTTP 403, ret_code 1103, "namespace 'usr-other' does not belong to this access key; its ` +
        `namespace is 'usr-emulator'"): set aicp:userId (or CORESHUB_USER_ID) to the user id of the access key's account`,
    ]);
    expect(cells(run.out, "signature of writes")).toEqual(["note", "signature of writes", "not probed: the user id is refused"]);
    expect(run.out).not.toContain("permissions");
  });

  it("fails without a user id: every notebook needs one", async () => {
    const run = await doctor({ ...env, CORESHUB_USER_ID: undefined });
    expect(run.code).toBe(1);
    expect(cells(run.out, "user id")).toEqual([
      "fail",
      "user id",
      "not set: every Notebook needs it (its namespace is the user id in lower case); set aicp:userId (or CORESHUB_USER_ID)",
    ]);
    expect(run.out).toContain("pulumi config set aicp:userId usr-...");
  });

  it("says the user id it checked", async () => {
    const run = await doctor(env);
    expect(cells(run.out, "user id")).toEqual(["ok", "user id", "usr-emulator: its namespace usr-emulator answers these keys"]);
  });

  it("runs through the plugin, for Python, Go and YAML users: pulumi-resource-aicp doctor", async () => {
    const run = await doctor(env, [plugin]);
    expect(run.code).toBe(0);
    expect(cells(run.out, "user id")).toEqual(["ok", "user id", "usr-emulator: its namespace usr-emulator answers these keys"]);
    const wrong = await doctor({ ...env, CORESHUB_USER_ID: "usr-other" }, [plugin]);
    expect(wrong.code).toBe(1);
  });
});
