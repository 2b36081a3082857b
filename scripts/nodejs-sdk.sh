#!/usr/bin/env bash
# Packs the plugin's generated TypeScript SDK (sdks/nodejs, package
# pulumi-aicp-plugin) as npm would publish it: compiled JavaScript with its
# declarations, package.json and README, in a tarball that installs like any
# published package (its dependencies from the registry, nothing linked to
# this clone). Uses this clone's TypeScript (run `npm ci` first). Prints the
# tarball's path as its last line; progress goes to stderr.
#
#   bash scripts/nodejs-sdk.sh              writes dist-sdk/pulumi-aicp-plugin-<version>.tgz
#   bash scripts/nodejs-sdk.sh <dir>        writes it into <dir>
#   npm install <that tarball>              in a TypeScript program's project
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/dist-sdk}" && cd "${1:-$root/dist-sdk}" && pwd)"
tsc="$root/node_modules/.bin/tsc"
[ -x "$tsc" ] || { echo "nodejs-sdk: $tsc is missing; run npm ci in the clone first" >&2; exit 1; }
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
"$tsc" -p "$root/sdks/nodejs/tsconfig.json" --outDir "$stage" --declarationMap false --sourceMap false >&2
cp "$root/sdks/nodejs/package.json" "$root/sdks/nodejs/README.md" "$stage/"
name="$(cd "$stage" && npm pack --silent --pack-destination "$out")"
echo "$out/$name"
