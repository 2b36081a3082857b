/**
 * Bad configuration through the real engine: each case is a stack whose
 * `aicp:*` settings break one rule, run as `pulumi preview`. It must fail with
 * the AICP_CONFIG message naming the key and its variable, before any request
 * reaches the platform (the emulator's log stays empty), and never print a
 * credential it was given.
 *
 * Two programs cover both places settings are resolved: a Notebook (the
 * dynamic-provider process, at configure) and a data-source function (the
 * program's own process). The function would send a request if the settings
 * were accepted, so "no request" is a real check there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorConfig, requestsBeyondSettingsCheck, startTestEmulator } from "../support/emulator";
import { createTestStack, recording, type TestStack } from "../support/pulumi";
import { recordCase } from "../support/reliability";

const password = "Hunter2-config-pass";

type Program = "resource" | "function";

interface Case {
  name: string;
  program: Program;
  /** Config to set for the case: [key, value, set through a --path key]. */
  config: (emulator: Emulator) => Array<[string, string, boolean?]>;
  /** Config keys to remove for the case. */
  remove?: string[];
  message: RegExp;
  /** Text that must appear nowhere in what the engine printed. */
  secret?: string;
}

const cases: Case[] = [
  {
    name: "aicp:routes of JSON null",
    program: "resource",
    config: () => [["aicp:routes", "null"]],
    message: /aicp:routes \(or AICP_ROUTES\) must be a JSON object such as .*got null/,
  },
  {
    name: "a route ending in '#', which would cut the signature off",
    program: "function",
    // Set as the README and the AICP_ROUTE error advise: one operation through --path.
    config: () => [["aicp:routes.listTemplates", "GET /resource/template#", true]],
    message: /aicp:routes \(or AICP_ROUTES\): listTemplates path must not contain '#'/,
  },
  {
    name: "a base URL carrying credentials",
    program: "function",
    config: (emulator) => [["aicp:baseUrl", emulator.url.replace("://", `://alice:${password}@`)]],
    message: /aicp:baseUrl \(or AICP_BASE_URL\) must not carry credentials/,
    secret: password,
  },
  {
    // It used to fail with the engine's "Unexpected struct type.": check returned inputs holding undefined.
    name: "no aicp:userId, for a notebook that names no user",
    program: "resource",
    config: () => [],
    remove: ["aicp:userId"],
    message: /userId is required: pass it, or set aicp:userId \(env CORESHUB_USER_ID\)/,
  },
  {
    name: "an absurd request timeout",
    program: "resource",
    config: () => [["aicp:requestTimeoutSeconds", "1e9"]],
    message: /aicp:requestTimeoutSeconds \(or AICP_REQUEST_TIMEOUT_SECONDS\) must be a number of seconds from 0\.5 to 600, got '1e9'/,
  },
];

describe("bad configuration through the real engine", () => {
  let emulator: Emulator;
  let target: TestStack;
  let program: Program = "resource";

  beforeAll(async () => {
    emulator = await startTestEmulator();
    target = await createTestStack({
      name: "bad-config",
      config: emulatorConfig(emulator),
      program: async (sdk) => {
        if (program === "function") {
          const { templates } = await sdk.getResourceTemplates({});
          return { templates: templates.length };
        }
        const nb = new sdk.Notebook("cfg", {
          chargeMode: "elastic",
          duration: 3600,
          image: "jupyter:1",
          imageType: "official",
          serverType: "jupyter",
          replicaSpecs: { specs: "sku-1" },
        });
        return { id: nb.id };
      },
    });
  });
  afterAll(async () => {
    await target?.dispose();
    await emulator?.close();
  });

  const apiRequests = () => emulator.requests().filter((r) => r.operation !== "admin");

  it("previews with the emulator's configuration, so each case below fails for its setting alone", async () => {
    for (const mode of ["resource", "function"] as const) {
      program = mode;
      emulator.clearRequests();
      await target.stack.preview();
      // The function reads templates at preview; the Notebook is only planned, after the one read that checks the settings.
      expect(requestsBeyondSettingsCheck(emulator).length > 0).toBe(mode === "function");
      if (mode === "resource") expect(apiRequests().map((r) => `${r.method} ${r.operation}`)).toEqual(["GET listNotebooks"]);
    }
  }, 120_000);

  for (const c of cases) {
    it(`pulumi preview refuses ${c.name}, naming the key, with no request sent`, async () => {
      let passed = false;
      let leaks = 0;
      const settings = c.config(emulator);
      try {
        program = c.program;
        for (const [key, value, path] of settings) await target.stack.setConfig(key, { value }, path);
        for (const key of c.remove ?? []) await target.stack.removeConfig(key);
        emulator.clearRequests();
        target.output.length = 0;
        const error = await target.stack.preview(recording(target)).then(
          () => undefined,
          (e: unknown) => String(e),
        );
        expect(error, "pulumi preview succeeded").toBeDefined();
        expect(error).toMatch(c.message);
        expect(error).not.toContain("Unexpected struct type");
        expect(apiRequests()).toEqual([]);
        // The engine prints each diagnostic live and again under "Diagnostics:"; there, a resource's error is one diagnostic. (A
        // function fails the program, which the Automation API's inline runner reports two or three times of its own.)
        const diagnostics = target.output.join("\n").split("Diagnostics:")[1] ?? "";
        const shown = diagnostics.match(new RegExp(c.message.source, "g"))?.length;
        if (c.program === "resource") expect(shown, `the error among the diagnostics:\n${diagnostics}`).toBe(1);
        if (c.secret) {
          const printed = `${error}\n${target.output.join("\n")}`;
          leaks = printed.split(c.secret).length - 1;
          expect(leaks).toBe(0);
        }
        passed = true;
      } finally {
        // Back to the emulator's configuration for the next case.
        for (const key of c.remove ?? []) await target.stack.setConfig(key, emulatorConfig(emulator)[key]!);
        for (const [key] of settings) {
          const root = key.split(".")[0]!;
          const original = emulatorConfig(emulator)[root];
          if (original) await target.stack.setConfig(root, original);
          else await target.stack.removeConfig(root);
        }
        recordCase({ suite: "bad config", name: c.name, passed, duplicates: 0, orphans: 0, leaks });
      }
    }, 120_000);
  }
});
