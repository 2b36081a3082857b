#!/usr/bin/env bash
# Builds the plugin's generated TypeScript SDK (sdk/nodejs, package
# pulumi-aicp-plugin) into an installable folder: the compiled JavaScript with
# its declarations, package.json and README. Uses this clone's TypeScript
# (run `npm ci` first). Prints the folder on stdout; progress goes to stderr.
#
#   bash scripts/nodejs-sdk.sh              writes dist-sdk/nodejs
#   bash scripts/nodejs-sdk.sh <dir>        writes <dir>
#   npm install <that folder>               in a TypeScript program's project
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist-sdk/nodejs}"
tsc="$root/node_modules/.bin/tsc"
[ -x "$tsc" ] || { echo "nodejs-sdk: $tsc is missing; run npm ci in the clone first" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
"$tsc" -p "$root/sdk/nodejs/tsconfig.json" --outDir "$out" --declarationMap false --sourceMap false >&2
cp "$root/sdk/nodejs/package.json" "$root/sdk/nodejs/README.md" "$out/"
echo "$out"
