/**
 * A value the TypeScript program marks with `pulumi.secret`, through the real
 * CLI and engine: the platform refuses the create and echoes the request body
 * in its error (the emulator's echoRequests switch), and `pulumi up` prints
 * the error without the value; after a create that succeeds, the state holds
 * the value only encrypted. test/contract/marked-secrets.test.ts checks the
 * same for generated paths and values on both fronts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliStack } from "../support/cli-project";
import { startTestEmulator } from "../support/emulator";

/** A package index token in a pip line, as a team would pass it. */
const token = "pypi-tok-3f9c1e7a5b";

const program = (rgId: string) => `
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");
const nb = new aicp.Notebook("research", { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official",
  serverType: "jupyter", replicaSpecs: { specs: "sku-1", customCpu: 2${rgId} },
  pip: pulumi.secret("torch --extra-index-url https://__token__:${token}@pypi.example/simple") });
exports.pip = nb.pip;
`;

describe("a value the TypeScript program marks secret", () => {
  it("is not printed when the platform echoes it in a refusal, and is kept encrypted in the state", async () => {
    const emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    emulator.misbehave({ echoRequests: true });
    const c = await cliStack("marked-secrets", emulator, program(`, rgId: "rg-that-does-not-exist"`));
    try {
      const refused = await c.pulumi("up");
      expect(refused.status, refused.output).not.toBe(0);
      // The echo reached the output (the test can fail), without the token.
      expect(refused.output).toContain('"image":"jupyter:1"');
      expect(refused.output.split(token).length - 1, refused.output).toBe(0);

      writeFileSync(join(c.project.dir, "index.js"), program(""));
      const made = await c.pulumi("up");
      expect(made.status, made.output).toBe(0);
      expect(made.output).not.toContain(token);
      // The paths the SDK sends (secretInputs) are no setting of the notebook: nothing to change on the next run.
      const again = await c.pulumi("preview", "--expect-no-changes");
      expect(again.status, again.output).toBe(0);
      const state = await c.pulumi("stack", "export");
      expect(state.status, state.output).toBe(0);
      expect(state.output).toContain("ciphertext");
      expect(state.output).not.toContain(token);
      expect(emulator.listNotebooks().map((n) => n.pip)).toEqual([expect.stringContaining(token)]);
    } finally {
      await c.pulumi("destroy");
      c.project.dispose();
      await emulator.close();
    }
  }, 240_000);
});
