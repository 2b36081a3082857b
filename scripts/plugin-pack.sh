#!/usr/bin/env bash
# Packs the provider plugin into the archive `pulumi plugin install` takes:
#
#   bash scripts/plugin-pack.sh [outdir]     (default: dist-plugin)
#   pulumi plugin install resource aicp <version> --file dist-plugin/pulumi-resource-aicp-v<version>-<os>-<arch>.tar.gz
#
# The archive holds the launcher pulumi-resource-aicp at its root, the package
# as npm publishes it (dist, schema.json) and its production dependencies with
# @pulumi/pulumi, so it runs on any machine with the Node.js of package.json
# "engines" (22.19) or newer on PATH.
# Prints the archive's path as its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/dist-plugin}" && cd "${1:-$root/dist-plugin}" && pwd)"
. "$root/scripts/bootstrap.sh" >&2

version="$(node -p 'require(process.argv[1]).version' "$root/package.json")"
pulumi_version="$(node -p 'require(process.argv[1]).devDependencies["@pulumi/pulumi"]' "$root/package.json")"
# Pulumi's names: linux|darwin|windows, amd64|arm64.
os="$(node -p 'process.platform === "win32" ? "windows" : process.platform')"
arch="$(node -p '({ x64: "amd64", arm64: "arm64" })[process.arch] ?? process.arch')"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
(cd "$root" && npm pack --silent --pack-destination "$stage" >/dev/null)
tar -xzf "$stage"/pulumi-aicp-*.tgz -C "$stage"
package="$stage/package"
cp "$root/bin/pulumi-resource-aicp" "$package/pulumi-resource-aicp"
# @pulumi/pulumi is the package's peer: the plugin needs its own copy (its gRPC and protobuf modules).
(cd "$package" && npm pkg delete peerDependencies devDependencies scripts &&
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error "@pulumi/pulumi@$pulumi_version" >&2)
archive="$out/pulumi-resource-aicp-v$version-$os-$arch.tar.gz"
tar -czf "$archive" -C "$package" .
echo "$archive"
