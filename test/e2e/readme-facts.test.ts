/**
 * What the README says happens is what happens, through
 * the real engine: the fix it gives for a moved `aicp:baseUrl` (only `up`
 * records the new value; refresh and destroy use what the last `up`
 * recorded), and its exact words on what the state holds of a registry
 * password (ciphertext when given as `password`, nothing when given as
 * `passwordFromEnv`) and of the secret key (ciphertext when set in the stack's
 * configuration, nothing when given in the environment); which examples are
 * Pulumi projects.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { notebookCases, program } from "../support/notebook-case";
import { allUserDocs } from "../support/user-docs";
import { emulatorCredentials, startTestEmulator } from "../support/emulator";

/** Every file under `dir`, concatenated. */
function tree(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? tree(path) : readFileSync(path, "utf8")))
    .join("\n");
}

describe("what the README says happens", () => {
  const cases = notebookCases();
  afterAll(() => cases.dispose());
  // The README and the pages it sends users to (docs/troubleshooting.md, docs/secrets.md, docs/configuration.md, docs/examples.md).
  const readme = allUserDocs();

  it("a moved aicp:baseUrl: refresh still calls the old address, as the README's troubleshooting says; `up` with the new value fixes it", async () => {
    expect(readme).toContain(
      "| `AICP_CONFIG` on `pulumi destroy` or `pulumi refresh` after moving `aicp:baseUrl` | `cannot reach <old address>: ECONNREFUSED; check aicp:baseUrl` |",
    );
    expect(readme).toMatch(/after moving `aicp:baseUrl`.*Run `pulumi up` with the new value first; `refresh` and `destroy` then use it/);
    const stateDir = mkdtempSync(join(tmpdir(), "aicp-moved-"));
    const stateFile = join(stateDir, "platform.json");
    const c = await cases.setUp("moved-url", program(), { stateFile });
    expect((await c.pulumi("config", "set", "aicp:baseUrl", c.emulator.url)).status).toBe(0);
    expect((await c.pulumi("up")).status).toBe(0);
    const uuid = String(c.notebook().uuid);
    await c.emulator.close();
    // The same platform at a new address.
    const moved = await startTestEmulator({ stateFile });
    try {
      expect(moved.listNotebooks().map((n) => n.uuid)).toContain(uuid);
      expect((await c.pulumi("config", "set", "aicp:baseUrl", moved.url)).status).toBe(0);
      const refresh = await c.pulumi("refresh");
      expect(refresh.status, refresh.output).not.toBe(0);
      // The settings' check names the old address and the key to look at (provider/settings-check.ts).
      expect(refresh.output).toMatch(/AICP_CONFIG: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; check aicp:baseUrl/);
      expect(refresh.output).not.toContain(moved.url);
      const up = await c.pulumi("up");
      expect(up.status, up.output).toBe(0);
      expect((await c.pulumi("refresh")).status).toBe(0);
      const destroy = await c.pulumi("destroy");
      expect(destroy.status, destroy.output).toBe(0);
      expect(moved.listNotebooks().map((n) => n.uuid)).not.toContain(uuid);
    } finally {
      await moved.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 240_000);

  it("a registry password given as `password` is in the state as ciphertext only; given as `passwordFromEnv`, in no form", async () => {
    expect(readme).toContain(
      "is there, encrypted with the stack's\n  secrets provider (ciphertext, never plain text). Given as `passwordFromEnv`,\n  it is not in the state in " +
        "any form.",
    );
    const custom = (secret: string) =>
      program(`, imageType: "custom", customImageSecret: { hasAuth: true, username: "bot", ${secret} }`).replace('imageType: "official",', "");
    const inline = await cases.setUp("state-password", custom('password: "inline-pass-7f3a"'));
    expect((await inline.pulumi("up")).status).toBe(0);
    expect(tree(inline.project.home)).not.toContain("inline-pass-7f3a");
    const decrypted = await inline.pulumi("stack", "export", "--show-secrets");
    expect(decrypted.output).toContain("inline-pass-7f3a");
    const fromEnv = await cases.setUp("state-password-env", custom('passwordFromEnv: "REGISTRY_PASSWORD"'), {}, { REGISTRY_PASSWORD: "env-pass-91bd" });
    // The secret key from the stack's configuration here (the first case had it from QY_SECRET_ACCESS_KEY alone).
    expect((await fromEnv.pulumi("config", "set", "--secret", "aicp:secretAccessKey", emulatorCredentials.secretAccessKey)).status).toBe(0);
    expect((await fromEnv.pulumi("up")).status).toBe(0);
    const fromEnvState = (await fromEnv.pulumi("stack", "export", "--show-secrets")).output;
    expect(fromEnvState).not.toContain("env-pass-91bd");
    expect(tree(fromEnv.project.home)).not.toContain("env-pass-91bd");

    // The secret key, as the README's Configuration says: in the state (encrypted) when set in the stack's configuration, not when
    // given as QY_SECRET_ACCESS_KEY.
    expect(readme).toContain(
      "Set in the stack's configuration, the secret\nkey is in the state too, as Pulumi records every provider's configuration\nthere: encrypted with the " +
        "stack's secrets provider (set it with `--secret`;\nciphertext, never plain text). " +
        "Given as `QY_SECRET_ACCESS_KEY`, it is not in\nthe state in any form",
    );
    expect(fromEnvState).toContain(emulatorCredentials.secretAccessKey);
    expect(tree(fromEnv.project.home)).not.toContain(emulatorCredentials.secretAccessKey);
    expect(decrypted.output).not.toContain(emulatorCredentials.secretAccessKey);
  }, 240_000);

  it("the examples it calls Pulumi projects are, and the two it says are not are not", () => {
    expect(readme).toContain(
      "`quickstart`, `notebook-from-template`, `stop-at-night` and `monitoring` are\nPulumi projects (`Pulumi.yaml`, `package.json`, `index.js`)",
    );
    expect(readme).toContain("`quickstart-python` is no project of its own");
    // Every folder that is no project is one the README says is not.
    const notProjects = readdirSync("examples").filter((name) => !readdirSync(join("examples", name)).includes("Pulumi.yaml"));
    expect(notProjects.sort()).toEqual(["ci", "guardrails", "quickstart-python"]);
    for (const name of ["quickstart", "notebook-from-template", "stop-at-night", "monitoring"]) {
      expect(readdirSync(join("examples", name)).sort()).toEqual(["Pulumi.yaml", "index.js", "package.json"]);
      // The package the README says to install from a tarball: a copied project names it.
      expect(readFileSync(join("examples", name, "package.json"), "utf8")).toContain('"pulumi-aicp": ');
    }
  });
});
