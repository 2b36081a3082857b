/**
 * The release rehearsal, through the real engine: `npm run release` writes
 * the release folder (scripts/release.sh); it is published to registries on
 * loopback (Verdaccio for npm, pypiserver for PyPI, from
 * scripts/rehearsal-tools.sh) and to a static folder over HTTP where the
 * schema's pluginDownloadURL points (the engine's own
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends it there, as a mirror would).
 * Then, in folders that hold nothing of the repository, with no plugin
 * installed and automatic plugin acquisition on, a user's steps:
 * `npm install pulumi-aicp` and the README's TypeScript program; `npx
 * pulumi-aicp doctor`; `pip install pulumi-aicp` and the README's Python
 * program (the Automation API; no Python language host here); a YAML
 * program. The Python and YAML programs acquire the plugin executable by
 * themselves. Registries fetch what they do not hold (@pulumi/pulumi, the
 * `pulumi` Python package) from the registries this machine is configured for.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { pluginVersion as version, yamlHostDir } from "../support/plugin-project";
import { pulumiBinary } from "../support/pulumi";

const repo = resolve(__dirname, "../..");
const schema = JSON.parse(readFileSync(join(repo, "schema.json"), "utf8")) as { pluginDownloadURL: string };

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.once("error", fail);
  });
}

/** Resolves when `url` answers, or fails after `seconds` with what `child` printed. */
async function answering(url: string, child: ChildProcess, log: () => string, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode}):\n${log()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer in ${seconds} s:\n${log()}`);
}

/** A server process whose output is kept for messages. */
function serve(command: string, args: string[], cwd: string): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (d) => (text += d));
  child.stderr!.on("data", (d) => (text += d));
  return { child, log: () => text.slice(-3000) };
}

/** Runs a command in `cwd`; returns its status and output (both streams). */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (status) => done({ status, output }));
  });
}

describe("the release rehearsal: published to local registries, installed and run as a user would", () => {
  let work: string;
  let release: string;
  let emulator: Emulator;
  let npmRegistry: string;
  let pyIndex: string;
  let downloads: Server;
  let downloadUrl: string;
  const servers: ChildProcess[] = [];

  /** The environment of a user's shell: the pulumi CLI, node, the emulator's settings, a fresh PULUMI_HOME and backend, no plugin. */
  function userEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    mkdirSync(join(dir, ".state"), { recursive: true });
    return {
      ...process.env,
      PATH: `${yamlHostDir()}:${resolve(pulumiBinary(), "..")}:${process.env.PATH}`,
      PULUMI_HOME: join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "rehearsal",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "",
      // Where a mirror of the release's download folder would be: the engine's own override of pluginDownloadURL.
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${schema.pluginDownloadURL.replace(/v\$\{VERSION\}$/, "").replace(/[.]/g, "\\.")}(.*)$=${downloadUrl}$1`,
      AICP_BASE_URL: emulator.url,
      QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      CORESHUB_USER_ID: emulatorCredentials.userId,
      AICP_ZONE: emulatorZone,
      AICP_POLL_INTERVAL_MS: "100",
      npm_config_registry: npmRegistry,
      npm_config_userconfig: join(dir, ".npmrc"),
      PIP_INDEX_URL: pyIndex,
      ...extra,
    };
  }

  /** A user's folder, outside the repository. */
  const userFolder = (name: string) => mkdtempSync(join(work, `${name}-`));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "aicp-rehearsal-"));
    emulator = await startTestEmulator();
    const tools = execFileSync("bash", [join(repo, "scripts/rehearsal-tools.sh")], { encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()!;
    const releaseArgs = [join(repo, "scripts/release.sh"), "--allow-dirty", "--out", join(work, "release")];
    release = execFileSync("bash", releaseArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .trim()
      .split("\n")
      .pop()!;

    // The plugin's download folder: the release's archives under v<version>/, as GitHub releases serve them.
    downloads = createServer((req, res) => {
      const file = join(release, basename(decodeURIComponent(req.url ?? "")));
      if (!req.url?.startsWith(`/v${version}/`) || !existsSync(file)) return void res.writeHead(404).end();
      // The engine checks the length it is told against what it receives.
      res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((done) => downloads.listen(0, "127.0.0.1", done));
    downloadUrl = `http://127.0.0.1:${(downloads.address() as { port: number }).port}/`;

    // npm: Verdaccio, the release's packages published to it, everything else fetched from the configured registry.
    const npmPort = await freePort();
    npmRegistry = `http://127.0.0.1:${npmPort}/`;
    const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
    const storage = join(work, "verdaccio");
    mkdirSync(storage);
    writeFileSync(
      join(storage, "config.yaml"),
      [
        `storage: ${join(storage, "storage")}`,
        `auth: { htpasswd: { file: ${join(storage, "htpasswd")}, max_users: 10 } }`,
        `uplinks: { upstream: { url: "${upstream}", timeout: 60s } }`,
        "packages:",
        "  'pulumi-aicp': { access: $all, publish: $authenticated }",
        "  'pulumi-aicp-plugin': { access: $all, publish: $authenticated }",
        "  '**': { access: $all, proxy: upstream }",
        "log: { type: stdout, format: pretty, level: warn }",
      ].join("\n") + "\n",
    );
    const verdaccio = serve(
      join(tools, "node_modules/.bin/verdaccio"),
      ["--config", join(storage, "config.yaml"), "--listen", `127.0.0.1:${npmPort}`],
      storage,
    );
    servers.push(verdaccio.child);
    await answering(`${npmRegistry}-/ping`, verdaccio.child, verdaccio.log);
    const user = await fetch(`${npmRegistry}-/user/org.couchdb.user:rehearsal`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "rehearsal", password: "rehearsal-password" }),
    });
    const { token } = (await user.json()) as { token: string };
    const publisher = userFolder("publisher");
    writeFileSync(join(publisher, ".npmrc"), `//127.0.0.1:${npmPort}/:_authToken=${token}\n`);
    for (const tarball of readdirSync(release).filter((f) => f.endsWith(".tgz"))) {
      const published = await run("npm", ["publish", join(release, tarball)], publisher, userEnv(publisher));
      expect(published.status, published.output).toBe(0);
    }

    // PyPI: pypiserver serves a folder (publishing is putting the files there); what it lacks it redirects to its fallback index.
    const pyPort = await freePort();
    pyIndex = `http://127.0.0.1:${pyPort}/simple/`;
    const packages = join(work, "pypi");
    mkdirSync(packages);
    for (const file of readdirSync(release).filter((f) => f.startsWith("pulumi_aicp-"))) writeFileSync(join(packages, file), readFileSync(join(release, file)));
    const pypi = serve(join(tools, "venv/bin/pypi-server"), ["run", "-i", "127.0.0.1", "-p", String(pyPort), packages], packages);
    servers.push(pypi.child);
    await answering(pyIndex, pypi.child, pypi.log);
  }, 300_000);

  afterAll(async () => {
    for (const child of servers) child.kill();
    downloads?.close();
    await emulator?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the release folder holds every artifact, with checksums", () => {
    const files = readdirSync(release).sort();
    expect(files).toEqual(
      [
        "CHANGELOG.md",
        "SHA256SUMS",
        `pulumi-aicp-${version}.tgz`,
        `pulumi-aicp-go-sdk-v${version}.tar.gz`,
        `pulumi-aicp-plugin-${version}.tgz`,
        `pulumi-resource-aicp-v${version}-linux-amd64.tar.gz`,
        `pulumi-resource-aicp-v${version}-linux-arm64.tar.gz`,
        `pulumi_aicp-${version}-py3-none-any.whl`,
        `pulumi_aicp-${version}.tar.gz`,
      ].sort(),
    );
    const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
    for (const file of files.filter((f) => f !== "SHA256SUMS")) expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${file.replace(/\./g, "\\.")}$`, "m"));
  });

  it("npm install pulumi-aicp, the README's TypeScript program previews, and npx pulumi-aicp doctor passes", async () => {
    const dir = userFolder("typescript");
    const env = userEnv(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "notebooks", private: true, main: "index.ts" }));
    const installed = await run("npm", ["install", "--no-audit", "--no-fund", "pulumi-aicp", "@pulumi/pulumi", "typescript"], dir, env);
    expect(installed.status, installed.output).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "node_modules/pulumi-aicp/package.json"), "utf8")).version).toBe(version);
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    writeFileSync(join(dir, "index.ts"), /^```ts\n([\s\S]*?)^```$/m.exec(readme)![1]!);
    writeFileSync(join(dir, "Pulumi.yaml"), "name: notebooks\nruntime: nodejs\n");
    expect((await run("pulumi", ["stack", "init", "dev", "--non-interactive"], dir, env)).status).toBe(0);
    const preview = await run("pulumi", ["preview", "--non-interactive"], dir, env);
    expect(preview.status, preview.output).toBe(0);
    expect(preview.output).toMatch(/\+ +pulumi-nodejs:dynamic\/aicp:Notebook +research +create/);
    const doctor = await run("npx", ["pulumi-aicp", "doctor"], dir, env);
    expect(doctor.status, doctor.output).toBe(0);
  }, 300_000);

  it("pip install pulumi-aicp, and the README's Python program acquires the plugin by itself and previews", async () => {
    const dir = userFolder("python");
    const env = userEnv(dir);
    execFileSync("python3", ["-m", "venv", join(dir, "venv")]);
    const installed = await run(join(dir, "venv/bin/pip"), ["install", "--quiet", "pulumi-aicp"], dir, env);
    expect(installed.status, installed.output).toBe(0);
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const block = /^```python\n([\s\S]*?)^```$/m.exec(readme.slice(readme.indexOf("## A program in each language")))![1]!;
    writeFileSync(join(dir, "readme_program.py"), block);
    const preview = await run(join(dir, "venv/bin/python"), [join(repo, "test/e2e/programs/python_stack.py"), "preview-file", "readme_program.py"], dir, env);
    expect(preview.status, preview.output).toBe(0);
    expect(JSON.parse(preview.output.slice(preview.output.lastIndexOf("RESULT ") + 7))).toEqual({ changes: { create: 3 } });
    expect(readdirSync(join(dir, ".pulumi-home/plugins"))).toContain(`resource-aicp-v${version}`);
  }, 300_000);

  it("a YAML program acquires the plugin executable by itself: up and destroy", async () => {
    const dir = userFolder("yaml");
    const env = userEnv(dir);
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `name: notebooks\nruntime: yaml\nresources:\n  research:\n    type: aicp:index:Notebook\n    options:\n      version: ${version}\n` +
        `      pluginDownloadURL: ${schema.pluginDownloadURL.replace("${VERSION}", version)}\n    properties:\n      chargeMode: elastic\n` +
        "      duration: 3600\n      image: jupyter:1\n      imageType: official\n      serverType: jupyter\n      replicaSpecs:\n" +
        "        specs: sku-1\n        customCpu: 2\noutputs:\n  uuid: ${research.uuid}\n",
    );
    expect((await run("pulumi", ["stack", "init", "dev", "--non-interactive"], dir, env)).status).toBe(0);
    const up = await run("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive"], dir, env);
    expect(up.status, up.output).toBe(0);
    expect(emulator.listNotebooks().filter((n) => String(n.name).startsWith("research"))).toHaveLength(1);
    expect(readdirSync(join(dir, ".pulumi-home/plugins"))).toContain(`resource-aicp-v${version}`);
    const destroy = await run("pulumi", ["destroy", "--yes", "--skip-preview", "--non-interactive"], dir, env);
    expect(destroy.status, destroy.output).toBe(0);
  }, 300_000);
});
