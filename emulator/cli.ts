/**
 * Command line: starts one emulator and prints exactly one line once it listens:
 *   AICP emulator listening on http://127.0.0.1:<port>
 *
 *   node dist/emulator/cli.js --port <P> [--host H] [--state <file>]
 *     [--access-key-id <id> --secret-access-key <key>] [--user-id <id>] [--ready-delay-ms <n>]
 *     [--dialect key=value[,key=value]] [--zones z1,z2] [--verbose]
 *
 * `--dialect` sets switches of the Dialect (types.ts), e.g.
 * `--dialect prefixes=both,counts=total,absentOperations=getResourceGroup+deleteResourceGroup`;
 * it may be repeated.
 *
 * Request lines go to stderr with --verbose, so stdout stays machine-readable.
 */
import { parseDialectArg } from "./dialect";
import { startEmulator } from "./server";
import type { Dialect, EmulatorOptions } from "./types";

const USAGE =
  "usage: aicp-emulator --port <P> [--host H] [--state <file>] [--access-key-id <id> --secret-access-key <key>] [--user-id <id>] [--ready-delay-ms <n>] " +
  "[--dialect key=value[,key=value]] [--zones z1,z2] [--verbose]";

const VALUED = ["port", "host", "state", "access-key-id", "secret-access-key", "user-id", "ready-delay-ms", "dialect", "zones"];

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): EmulatorOptions {
  const values: Record<string, string> = {};
  let dialect: Partial<Dialect> = {};
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    }
    if (arg === "--verbose") {
      verbose = true;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || !VALUED.includes(m[1]!)) fail(`unknown argument '${arg}'`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) fail(`${arg} needs a value`);
    if (m[1] === "dialect") {
      try {
        dialect = { ...dialect, ...parseDialectArg(value) };
      } catch (e) {
        fail((e as Error).message);
      }
      continue;
    }
    values[m[1]!] = value;
  }
  const int = (name: string): number | undefined => {
    const v = values[name];
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) fail(`--${name} must be a non-negative integer, got '${v}'`);
    return Number(v);
  };
  const keyId = values["access-key-id"];
  const secret = values["secret-access-key"];
  if ((keyId === undefined) !== (secret === undefined)) fail("--access-key-id and --secret-access-key go together");
  const options: EmulatorOptions = {
    port: int("port") ?? 0,
    host: values.host,
    stateFile: values.state,
    notebookReadyDelayMs: int("ready-delay-ms"),
    dialect,
  };
  if (values.zones !== undefined) options.zones = values.zones.split(",").filter(Boolean);
  if (keyId !== undefined && secret !== undefined) {
    options.credentials = [{ accessKeyId: keyId, secretAccessKey: secret, userId: values["user-id"] }];
  } else if (values["user-id"] !== undefined) {
    options.credentials = [{ accessKeyId: "AKIDEMULATOR", secretAccessKey: "emulator-secret", userId: values["user-id"] }];
  }
  if (verbose) options.log = (line) => process.stderr.write(line + "\n");
  return options;
}

async function main(): Promise<void> {
  const emulator = await startEmulator(parseArgs(process.argv.slice(2)));
  process.stdout.write(`AICP emulator listening on ${emulator.url}\n`);
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    void emulator.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`AICP emulator failed to start: ${(e as Error)?.message ?? String(e)}\n`);
  process.exit(1);
});
