#!/usr/bin/env bash
# Makes the provider plugin one self-contained executable per platform, which
# runs where no Node.js is installed, and packs each in the archive the engine
# installs (`pulumi plugin install`, or by itself from the schema's
# pluginDownloadURL):
#
#   bash scripts/plugin-executable.sh [outdir] [arch ...]   (default: dist-plugin, the machine's arch)
#   -> <outdir>/pulumi-resource-aicp-v<version>-linux-<arch>.tar.gz, arch amd64 or arm64
#
# How: the compiled plugin and all it loads are bundled into one script
# (tools/plugin-executable/bundle.mjs), which becomes the main script of a
# Node.js single executable application: Node's own mechanism, a blob
# injected with postject into a copy of the node binary of the same version
# (node-linux-<arch> from the npm registry, the official build; its checksum
# is not checked against nodejs.org's, which this machine cannot reach), with
# package.json and schema.json as its assets. Each executable must start and
# print its port before it is packed (arm64 under qemu-user where installed).
# Only for this machine's arch is V8's code cache in the blob (it is specific
# to the arch that made it). Linux only: darwin executables must be signed
# after injection (codesign, on macOS) and Windows ones would need the PE
# resource tools; see README "Installing the plugin".
# Prints each archive's path, one per line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/dist-plugin}" && cd "${1:-$root/dist-plugin}" && pwd)"
shift || true
. "$root/scripts/bootstrap.sh" >&2

version="$(node -p 'require(process.argv[1]).version' "$root/package.json")"
# The Node.js every executable embeds: the one pinned version, which the npm registry carries for both archs
# (scripts/check-pins.sh checks that), never whatever node this machine runs.
node_version="$(bash "$root/scripts/pin.sh" node)"
host_arch="$(node -p '({ x64: "amd64", arm64: "arm64" })[process.arch] ?? process.arch')"
archs=("$@")
[ "${#archs[@]}" -gt 0 ] || archs=("$host_arch")

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
[ -f "$root/dist/plugin/main.js" ] || { echo "plugin-executable: build first (npm run build)" >&2; exit 1; }
node "$root/tools/plugin-executable/bundle.mjs" "$stage/plugin.cjs" >&2

# The official node binary of $node_version for linux-$1 (npm arch name), fetched once into .cache
# (scripts/bootstrap.sh's _aicp_fetch_node, which names the package and version when the registry refuses it).
node_binary() {
  local dir
  dir="$(_aicp_fetch_node "$1" "$node_version")" || exit 1
  echo "$dir/bin/node"
}
# The blob must be made by the same Node.js as the binary it goes into: this machine's arch of the pin.
case "$host_arch" in amd64) host_node="$(node_binary x64)" ;; arm64) host_node="$(node_binary arm64)" ;; *) echo "plugin-executable: this machine's arch $host_arch is not amd64 or arm64" >&2; exit 1 ;; esac

for arch in "${archs[@]}"; do
  case "$arch" in
    amd64) npm_arch=x64 ;;
    arm64) npm_arch=arm64 ;;
    *) echo "plugin-executable: arch must be amd64 or arm64, got '$arch'" >&2; exit 1 ;;
  esac
  # The official binary of this Node.js version as the npm registry carries it (node-linux-<arch>), for every arch
  # alike: never whatever node this machine has, which may be a distribution's build linked to its own libraries.
  binary="$(node_binary "$npm_arch")"
  if [ "$arch" = "$host_arch" ]; then code_cache=true; else code_cache=false; fi
  dir="$stage/$arch"
  mkdir -p "$dir"
  cat >"$stage/sea-config.json" <<JSON
{
  "main": "$stage/plugin.cjs",
  "output": "$stage/$arch.blob",
  "disableExperimentalSEAWarning": true,
  "useCodeCache": $code_cache,
  "assets": { "package.json": "$root/package.json", "schema.json": "$root/schema.json" }
}
JSON
  "$host_node" --experimental-sea-config "$stage/sea-config.json" >&2
  # Without its debug symbols (a fifth of the binary) where this machine's strip reads the arch; as it is elsewhere.
  strip -o "$dir/pulumi-resource-aicp" "$binary" 2>/dev/null || cp "$binary" "$dir/pulumi-resource-aicp"
  chmod u+w "$dir/pulumi-resource-aicp"
  "$root/node_modules/.bin/postject" "$dir/pulumi-resource-aicp" NODE_SEA_BLOB "$stage/$arch.blob" \
    --sentinel-fuse NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2 >&2
  # It must start and print its port, as the engine waits for, before it is packed: natively for this machine's
  # arch; under qemu-user for arm64 on an amd64 machine where it is installed (Debian: qemu-user and
  # libc6-arm64-cross, libstdc++6-arm64-cross), else said and left unstarted.
  start=("$dir/pulumi-resource-aicp")
  if [ "$arch" != "$host_arch" ]; then
    if [ "$arch" = arm64 ] && command -v qemu-aarch64 >/dev/null 2>&1 && [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
      start=(qemu-aarch64 -L /usr/aarch64-linux-gnu "$dir/pulumi-resource-aicp")
    else
      start=()
      echo "plugin-executable: the $arch executable was not started here (no qemu-user for it)" >&2
    fi
  fi
  if [ "${#start[@]}" -gt 0 ]; then
    port="$(node -e '
      const [command, ...args] = process.argv.slice(1);
      const child = require("node:child_process").spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
      const timer = setTimeout(() => { child.kill(); process.exit(1); }, 90000);
      child.stdout.once("data", (d) => { clearTimeout(timer); process.stdout.write(String(d).trim()); child.kill(); });
    ' "${start[@]}")" || true
    [[ "$port" =~ ^[0-9]+$ ]] || { echo "plugin-executable: the $arch executable did not print its port (got '$port')" >&2; exit 1; }
    echo "plugin-executable: the $arch executable started (port $port)" >&2
  fi
  archive="$out/pulumi-resource-aicp-v$version-linux-$arch.tar.gz"
  tar -czf "$archive" -C "$dir" pulumi-resource-aicp
  echo "$archive"
done
