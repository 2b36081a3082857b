/**
 * The state backends a pipeline's runners share, as real servers on this
 * machine: S3 (moto's server, scripts/moto.sh) and PostgreSQL (Debian's
 * server, scripts/postgres.sh), each started once per test file, each giving
 * every case a store of its own (a bucket, a database) and the environment
 * that makes `pulumi` keep a stack's state there.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./poll";

/** A running backend server: a fresh store's environment for `pulumi`, and a stop. */
export interface SharedBackend {
  readonly name: "S3" | "PostgreSQL";
  /** A store no other case uses, and the environment that keeps a stack's state in it. */
  fresh(): Promise<Record<string, string>>;
  stop(): void;
}

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The path a setup script prints, or an error that says how to get the tool. */
function installed(script: string, missing: string): string {
  try {
    return execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  } catch {
    throw new Error(missing);
  }
}

/** moto's S3 server: a bucket per case. */
export async function startS3(): Promise<SharedBackend> {
  const server = installed(
    "scripts/moto.sh",
    "moto's S3 server is not installed and could not be: run `bash scripts/moto.sh` (python3 with venv and pip, PyPI)",
  );
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const moto: ChildProcess = spawn(server, ["-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  const answers = () =>
    fetch(endpoint).then(
      () => true,
      () => false,
    );
  await eventually(answers, "moto's S3 server to answer", 60_000);
  let buckets = 0;
  return {
    name: "S3",
    async fresh() {
      const bucket = `pipeline-state-${++buckets}`;
      const made = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
      if (made.status !== 200) throw new Error(`moto did not make bucket ${bucket}: HTTP ${made.status}`);
      return {
        PULUMI_BACKEND_URL: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&use_path_style=true&region=us-east-1&disable_https=true`,
        AWS_ACCESS_KEY_ID: "moto",
        AWS_SECRET_ACCESS_KEY: "moto",
        AWS_REGION: "us-east-1",
      };
    },
    stop: () => void moto.kill("SIGKILL"),
  };
}

/**
 * A PostgreSQL server of its own, in a temporary folder, on a free port of
 * the loopback interface, trusting local connections: a database per case.
 * The server refuses to run as root, so under root (CI) it runs as the
 * `postgres` user Debian's package makes.
 */
export async function startPostgres(): Promise<SharedBackend> {
  const bin = installed(
    "scripts/postgres.sh",
    "no PostgreSQL server is installed and none could be: run `bash scripts/postgres.sh` (Debian: apt-get install postgresql)",
  );
  const asServerUser = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const dir = mkdtempSync(join(tmpdir(), "aicp-postgres-"));
  // The server's user must reach its folder; nothing in it is a secret.
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const run = (command: string, ...args: string[]) => {
    const [file, ...rest] = [...asServerUser, command, ...args];
    const result = spawnSync(file!, rest, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.stdout || result.error?.message}`);
  };
  run(join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "--no-sync");
  const port = await freePort();
  const [file, ...rest] = [...asServerUser, join(bin, "postgres"), "-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", dir, "-F"];
  const server: ChildProcess = spawn(file!, rest, { stdio: "ignore" });
  const psql = (sql: string) =>
    spawnSync(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql], {
      encoding: "utf8",
    });
  await eventually(async () => psql("SELECT 1").status === 0, "the PostgreSQL server to answer", 60_000);
  let databases = 0;
  return {
    name: "PostgreSQL",
    async fresh() {
      const database = `pipeline_state_${++databases}`;
      const made = psql(`CREATE DATABASE ${database}`);
      if (made.status !== 0) throw new Error(`CREATE DATABASE ${database} failed: ${made.stderr}`);
      return { PULUMI_BACKEND_URL: `postgres://postgres@127.0.0.1:${port}/${database}?sslmode=disable` };
    },
    stop() {
      try {
        run(join(bin, "pg_ctl"), "-D", data, "stop", "-m", "immediate");
      } catch {
        server.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
