/**
 * What every request says of its sender (issue: registry readiness): a
 * User-Agent naming the provider, its version and the front that sends it,
 * as the Pulumi registry asks of a provider, and the `Channel: api` header
 * the platform's operator SDK sends on every request
 * (docs/platform-api.md B6).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packagedFile } from "./single-executable";

/**
 * Which front sends: the TypeScript package's dynamic provider (`nodejs`),
 * the plugin that serves Python, Go, YAML and .NET (`plugin`), a program's
 * data-source functions (`program`), the guardrails pack (`policy`), or
 * `pulumi-aicp doctor` (`doctor`).
 */
export type Front = "nodejs" | "plugin" | "program" | "policy" | "doctor";

/** The package root: dist/client/ is two levels below it, client/ (the sources) one. */
const root = existsSync(join(__dirname, "..", "package.json")) ? join(__dirname, "..") : join(__dirname, "..", "..");

/** The provider's version: the package's (a single executable carries its package.json as an asset). */
export const providerVersion = (JSON.parse(packagedFile("package.json") ?? readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

/** Held on the process, not the module: a module loaded twice (a test's fresh command) still sees the entry point's choice. */
const frontKey = Symbol.for("pulumi-aicp.front");
const holder = globalThis as { [frontKey]?: Front };

/** Sets the front of this process's clients that name none: called once by an entry point (plugin/main.ts). */
export function sendingAs(front: Front): void {
  holder[frontKey] = front;
}

/** This process's front: the plugin, or the TypeScript package's provider (messages name the commands of the front in use). */
export function currentFront(): Front {
  return holder[frontKey] ?? "nodejs";
}

/** The User-Agent of a request from `front` (by default this process's). */
export function userAgent(front: Front = currentFront()): string {
  return `pulumi-aicp/${providerVersion} (${front}; node ${process.version}; ${process.platform})`;
}

/** The header the platform's own SDK sends with every request. */
export const channelHeader = { channel: "api" } as const;
