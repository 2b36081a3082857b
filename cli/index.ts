#!/usr/bin/env node
/**
 * The `pulumi-aicp` command. One subcommand so far:
 *
 *   pulumi-aicp doctor [--stack <name>]
 *
 * reads the provider's configuration (the `aicp:*` keys of the stack when
 * `--stack` is given, through the pulumi CLI; otherwise the environment
 * variables of docs/configuration.md), checks it against the platform
 * read-only and prints what to set. Exit status: 0 all good, 1 something will
 * not work, 2 the platform cannot be used with this configuration.
 */
import "./node-check";
import { execFileSync } from "node:child_process";
import { AicpError } from "../client/errors";
import { resolveSettings, type ConfigSource } from "../client/config";
import { diagnose, exitCode, render } from "./doctor";

const usage = "usage: pulumi-aicp doctor [--stack <name>]";

/** The stack's configuration, secrets decrypted, as the provider would receive it. */
function stackConfig(stack: string): ConfigSource {
  let text: string;
  try {
    text = execFileSync("pulumi", ["config", "--json", "--show-secrets", "--stack", stack], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(
      `could not read the configuration of stack '${stack}' with the pulumi CLI: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`,
    );
  }
  const entries = JSON.parse(text) as Record<string, { value?: unknown }>;
  return (key) => {
    const value = entries[key]?.value;
    return value === undefined ? undefined : typeof value === "string" ? value : JSON.stringify(value);
  };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "doctor") {
    process.stderr.write(`${usage}\n`);
    return command === undefined || command === "--help" || command === "-h" ? 0 : 2;
  }
  let source: ConfigSource = () => undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--stack" && rest[i + 1]) source = stackConfig(rest[++i]!);
    else {
      process.stderr.write(`unknown argument '${rest[i]}'\n${usage}\n`);
      return 2;
    }
  }
  const diagnosis = await diagnose(resolveSettings(source));
  process.stdout.write(render(diagnosis));
  return exitCode(diagnosis);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Configuration errors name the key at fault; nothing secret is in them.
    process.stdout.write(`doctor: ${error instanceof AicpError || error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
