/**
 * Plumbing of the benchmark: the emulator as its own process, the package
 * installed from its tarball as a user gets it, stacks on a local file
 * backend, the provider process's memory, and small statistics.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type * as automation from "@pulumi/pulumi/automation";

export const repo = resolve(__dirname, "../..");
export const credentials = { accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: "usr-emulator" };

/** The emulator in a process of its own, so it does not share the benchmark's event loop. */
export interface EmulatorProcess {
  url: string;
  admin<T>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): void;
}

/** Starts the emulator CLI; `dialect` is its `--dialect` flag, e.g. "counts=page,totalSum=false". */
export async function startEmulator(readyDelayMs: number, dialect?: string): Promise<EmulatorProcess> {
  const args = [join(repo, "dist/emulator/cli.js"), "--port", "0", "--ready-delay-ms", String(readyDelayMs), ...(dialect ? ["--dialect", dialect] : [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = /listening on (\S+)/.exec(chunk.toString());
      if (found) done(found[1]!);
    });
    child.on("exit", () => fail(new Error("the emulator exited before listening")));
  });
  return {
    url,
    async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${url}/__emulator${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
      return ((await response.json()) as { data: T }).data;
    },
    stop: () => child.kill(),
  };
}

/** Packs the package and installs it with @pulumi/pulumi into a temp folder; programs live below it. */
export function installPackage(): string {
  const root = mkdtempSync(join(tmpdir(), "aicp-bench-"));
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", root], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as Array<{ filename: string }>;
  const version = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies[
    "@pulumi/pulumi"
  ];
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ private: true, dependencies: { "pulumi-aicp": `file:${join(root, pack!.filename)}`, "@pulumi/pulumi": version } }),
  );
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, stdio: "ignore" });
  return root;
}

/** What every benchmarked notebook declares (the stack's and the direct baseline's alike). */
export const notebookArgs = {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter:1",
  imageType: "official",
  serverType: "jupyter",
  replicaSpecs: { specs: "sku-1", customCpu: 2 },
} as const;

/**
 * A stack `name` of project `aicp-<name>` running `program` inline, with its own PULUMI_HOME and file backend in a
 * temporary folder and its work folder below `root` (where the package is installed).
 */
export async function inlineStack(
  root: string,
  name: string,
  program: () => Promise<Record<string, unknown>>,
  envVars: Record<string, string> = {},
): Promise<{ stack: automation.Stack; dispose(): void }> {
  const auto = createRequire(join(root, "package.json"))("@pulumi/pulumi/automation") as typeof automation;
  const base = mkdtempSync(join(tmpdir(), `aicp-bench-${name}-`));
  mkdirSync(join(base, "state"));
  const workDir = mkdtempSync(join(root, `${name}-`));
  const binary = process.env.AICP_PULUMI;
  if (!binary) throw new Error("run the benchmark with `npm run bench`, which provides the pulumi CLI");
  const backend = `file://${join(base, "state")}`;
  const stack = await auto.LocalWorkspace.createStack(
    { stackName: name, projectName: `aicp-${name}`, program },
    {
      workDir,
      pulumiCommand: await auto.PulumiCommand.get({ root: dirname(dirname(binary)) }),
      pulumiHome: join(base, "home"),
      projectSettings: { name: `aicp-${name}`, runtime: "nodejs", backend: { url: backend } },
      envVars: { PULUMI_CONFIG_PASSPHRASE: "bench", PULUMI_BACKEND_URL: backend, ...envVars },
    },
  );
  return { stack, dispose: () => [base, workDir].forEach((d) => rmSync(d, { recursive: true, force: true })) };
}

/**
 * A stack whose inline program declares `count` notebooks, against the
 * emulator: auto-named, or with `names: "pinned"` each with a `name` of its
 * own (whose create the preview checks: provider/notebook/preview.ts). Waits
 * poll every 100 ms, or with `defaultPolling` as a user's do.
 */
export async function notebookStack(
  root: string,
  emulator: EmulatorProcess,
  count: number,
  names: "auto" | "pinned" = "auto",
  { defaultPolling = false }: { defaultPolling?: boolean } = {},
): Promise<{ stack: automation.Stack; dispose(): void }> {
  const aicp = createRequire(join(root, "package.json"))("pulumi-aicp") as typeof import("../sdk");
  const program = async () => {
    for (let i = 0; i < count; i++) new aicp.Notebook(`nb-${i}`, names === "pinned" ? { ...notebookArgs, name: `pinned-${i}` } : notebookArgs);
    return {};
  };
  const polling: Record<string, string> = defaultPolling ? {} : { AICP_POLL_INTERVAL_MS: "100" };
  const { stack, dispose } = await inlineStack(root, names === "pinned" ? "bench-pinned" : "bench", program, polling);
  await stack.setAllConfig(emulatorConfig(emulator));
  return { stack, dispose };
}

/**
 * The same notebooks as a YAML program served by the provider plugin (the
 * plugin's front): this repository's bin/pulumi-resource-aicp, named by the
 * project's `plugins.providers`, and the YAML language host built from the Go
 * module proxy (tools/yaml-host/build.sh).
 */
export async function yamlNotebookStack(root: string, emulator: EmulatorProcess, count: number): Promise<{ stack: automation.Stack; dispose(): void }> {
  const auto = createRequire(join(root, "package.json"))("@pulumi/pulumi/automation") as typeof automation;
  const binary = process.env.AICP_PULUMI;
  if (!binary) throw new Error("run the benchmark with `npm run bench`, which provides the pulumi CLI");
  const yamlHost = execFileSync("bash", [join(repo, "tools/yaml-host/build.sh")], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  const version = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }).version;
  const base = mkdtempSync(join(tmpdir(), "aicp-bench-yaml-"));
  mkdirSync(join(base, "state"));
  const workDir = mkdtempSync(join(root, "yaml-"));
  const { chargeMode, duration, image, imageType, serverType, replicaSpecs } = notebookArgs;
  const notebook = (i: number) =>
    [
      `  nb-${i}:`,
      "    type: aicp:index:Notebook",
      "    properties:",
      ...Object.entries({ chargeMode, duration, image, imageType, serverType }).map(([key, value]) => `      ${key}: ${value}`),
      "      replicaSpecs:",
      `        specs: ${replicaSpecs.specs}`,
      `        customCpu: ${replicaSpecs.customCpu}`,
    ].join("\n");
  const plugin = ["plugins:", "  providers:", "    - name: aicp", `      path: ${JSON.stringify(join(repo, "bin"))}`, `      version: ${version}`];
  const program = ["name: aicp-yaml-bench", "runtime: yaml", ...plugin, "resources:", ...Array.from({ length: count }, (_, i) => notebook(i))];
  writeFileSync(join(workDir, "Pulumi.yaml"), program.join("\n") + "\n");
  const backend = `file://${join(base, "state")}`;
  const stack = await auto.LocalWorkspace.createStack(
    { stackName: "yaml", workDir },
    {
      workDir,
      pulumiCommand: await auto.PulumiCommand.get({ root: dirname(dirname(binary)) }),
      pulumiHome: join(base, "home"),
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: "bench",
        PULUMI_BACKEND_URL: backend,
        PATH: `${yamlHost}:${dirname(binary)}:${process.env.PATH}`,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        AICP_POLL_INTERVAL_MS: "100",
      },
    },
  );
  await stack.setAllConfig(emulatorConfig(emulator));
  return { stack, dispose: () => [base, workDir].forEach((d) => rmSync(d, { recursive: true, force: true })) };
}

/** The stack configuration that points the provider at the emulator. */
function emulatorConfig(emulator: EmulatorProcess): automation.ConfigMap {
  return {
    "aicp:baseUrl": { value: emulator.url },
    "aicp:accessKeyId": { value: credentials.accessKeyId },
    "aicp:secretAccessKey": { value: credentials.secretAccessKey, secret: true },
    "aicp:userId": { value: credentials.userId },
    "aicp:zone": { value: "xb3" },
  };
}

/** Samples the peak resident memory of the dynamic-provider processes while `work` runs. */
export async function withProviderMemory<T>(work: () => Promise<T>): Promise<{ result: T; peakRssBytes: number }> {
  let peak = 0;
  const sample = () => {
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider")) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakRssBytes: peak };
  } finally {
    clearInterval(timer);
  }
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const t0 = performance.now();
  const result = await work();
  return { result, ms: performance.now() - t0 };
}

/** min / median / max of repeated measurements. */
export function spread(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
}

export interface LoggedRequest {
  method: string;
  operation?: string;
  status: number;
}

/** Requests of the API (not the admin routes), counted by operation. */
export function countByOperation(log: LoggedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of log) if (r.operation && r.operation !== "admin") counts[r.operation] = (counts[r.operation] ?? 0) + 1;
  return counts;
}

export function writes(log: LoggedRequest[]): number {
  return log.filter((r) => r.operation !== "admin" && r.method !== "GET").length;
}
