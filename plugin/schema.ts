/**
 * The package's name, version and schema as the plugin serves them. The
 * schema is built from the SDK's types and the kinds' descriptions by
 * schema-build.ts and committed as schema.json; the plugin only reads it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packagedFile } from "../client/single-executable";
import { providerVersion } from "../client/user-agent";

/** The Pulumi package name: tokens are `aicp:index:<Name>`, the plugin `pulumi-resource-aicp`. */
export const packageName = "aicp";

/** The package root: dist/plugin/ is two levels below it, plugin/ (the sources, as in-process tests load them) one. */
const root = existsSync(join(__dirname, "..", "package.json")) ? join(__dirname, "..") : join(__dirname, "..", "..");

/** A file beside package.json: from the single executable's assets when the plugin is one (scripts/plugin-executable.sh). */
const rootFile = (name: string) => packagedFile(name) ?? readFileSync(join(root, name), "utf8");

/** The provider's version: the package's (the schema carries the same). */
export const pluginVersion = providerVersion;

let text: string | undefined;

/** schema.json as committed beside package.json. */
export function schemaText(): string {
  text ??= rootFile("schema.json");
  return text;
}
