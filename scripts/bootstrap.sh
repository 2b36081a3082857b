#!/usr/bin/env bash
# Provisions the toolchain every project command relies on, idempotently:
#   - Node.js of package.json "engines" (22.19+; the machine's node if new
#     enough, else node-linux-<arch> at the version scripts/pins.env pins, from
#     the npm registry, unpacked under .cache);
#   - the Pulumi CLI at least at the version of @pulumi/pulumi in package.json
#     (from PATH or ~/.pulumi/bin, else built with Go from tools/pulumi, cached
#     under .cache/pulumi), with the dynamic-provider plugin script beside it when
#     it is ours, on PATH otherwise (nothing is written outside the repository);
#   - an offline-safe environment for every pulumi call;
#   - the platform's published Python clients for the conformance suite, pinned,
#     in a venv under .cache/pyclients (scripts/pyclients.sh), exported as
#     AICP_PYCLIENTS_PYTHON; optional: without python3 it is left unset.
#
# Source it to get the environment in the current shell:  . scripts/bootstrap.sh
# Run it to provision and print what it found:            bash scripts/bootstrap.sh
# Progress goes to stderr so that sourcing it in a script stays quiet on stdout.

_aicp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_aicp_cache="$_aicp_root/.cache"

_aicp_log() { [ -n "${AICP_BOOTSTRAP_QUIET:-}" ] || echo "bootstrap: $*" >&2; }
_aicp_fail() { echo "bootstrap: error: $*" >&2; return 1; }

# Prints the version of @pulumi/pulumi pinned in package.json (no range characters).
_aicp_pinned_pulumi() {
  sed -n 's/.*"@pulumi\/pulumi": *"[^0-9]*\([0-9][0-9.]*\)".*/\1/p' "$_aicp_root/package.json" | head -n 1
}

# True when version $1 >= version $2 (dotted numbers).
_aicp_version_ge() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]
}

# Prints the minimum Node.js of package.json "engines" (">=22.19" gives 22.19), which client/node-version.ts reads too.
_aicp_min_node() {
  sed -n 's/.*"node": *">= *\([0-9][0-9.]*\)".*/\1/p' "$_aicp_root/package.json" | head -n 1
}

# Unpacks the official Node.js build the npm registry carries as node-linux-<arch>@<version> into
# .cache/node-linux-<arch>-<version> once, and prints that folder (scripts/plugin-executable.sh uses it too).
_aicp_fetch_node() {
  local arch="$1" version="$2" dir="$_aicp_cache/node-linux-$1-$2" tmp
  if [ ! -x "$dir/bin/node" ]; then
    tmp="$(mktemp -d)" || return 1
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$version" >"$tmp/pack.log" 2>&1) || {
      sed 's/^/  /' "$tmp/pack.log" >&2
      rm -rf "$tmp"
      _aicp_fail "npm pack node-linux-$arch@$version failed: the npm registry does not serve it (scripts/pins.env pins node=$version; bash scripts/check-pins.sh checks every pin)"
      return 1
    }
    mkdir -p "$tmp/unpacked" && tar xzf "$tmp"/node-linux-*.tgz -C "$tmp/unpacked" || { rm -rf "$tmp"; _aicp_fail "cannot unpack node-linux-$arch@$version"; return 1; }
    mkdir -p "$_aicp_cache" && rm -rf "$dir" && mv "$tmp/unpacked/package" "$dir"
    rm -rf "$tmp"
  fi
  echo "$dir"
}

_aicp_node() {
  local min have="" pinned arch dir
  min="$(_aicp_min_node)"
  [ -n "$min" ] || { _aicp_fail "cannot read the minimum Node.js (engines.node) from package.json"; return 1; }
  if command -v node >/dev/null 2>&1; then have="$(node -p 'process.versions.node' 2>/dev/null)"; fi
  if [ -n "$have" ] && _aicp_version_ge "$have" "$min"; then
    _aicp_log "node $have from PATH"
    return 0
  fi
  pinned="$(bash "$_aicp_root/scripts/pin.sh" node)" || return 1
  case "$(uname -m)" in aarch64 | arm64) arch=arm64 ;; *) arch=x64 ;; esac
  [ -x "$_aicp_cache/node-linux-$arch-$pinned/bin/node" ] ||
    _aicp_log "node ${have:-missing} is older than $min; installing node-linux-$arch@$pinned (scripts/pins.env) from the npm registry into .cache"
  dir="$(_aicp_fetch_node "$arch" "$pinned")" || return 1
  export PATH="$dir/bin:$PATH"
  _aicp_log "node $(node -p 'process.versions.node') from ${dir/#$_aicp_root/.}"
}

# Finds a pulumi binary of at least the pinned version; prints its directory.
_aicp_find_pulumi() {
  local want="$1" candidate v
  for candidate in "$(command -v pulumi 2>/dev/null)" "$HOME/.pulumi/bin/pulumi" "$_aicp_cache/pulumi/v$want/bin/pulumi"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    v="$("$candidate" version 2>/dev/null | sed 's/^v//')"
    if [ -n "$v" ] && _aicp_version_ge "$v" "$want"; then dirname "$candidate"; return 0; fi
  done
  return 1
}

_aicp_build_pulumi() {
  local want="$1" out="$_aicp_cache/pulumi/v$1/bin"
  command -v go >/dev/null 2>&1 || { _aicp_fail "no pulumi >= $want found and no Go toolchain to build one; install the Pulumi CLI (https://www.pulumi.com/docs/install/) or Go 1.26+"; return 1; }
  _aicp_log "building pulumi v$want with Go from tools/pulumi (first run only; cached in .cache/pulumi)"
  # -mod=readonly makes the committed go.sum the authority, so the checksum
  # database (unreachable on some networks) is never consulted.
  mkdir -p "$out.tmp"
  (
    cd "$_aicp_root/tools/pulumi" &&
      GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOSUMDB=off CGO_ENABLED=0 \
        go build -trimpath \
        -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$want" \
        -o "$out.tmp/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  ) || { _aicp_fail "go build of pulumi failed; see the output above"; return 1; }
  rm -rf "$out" && mv "$out.tmp" "$out"
}

# The engine runs dynamic providers through the plugin script that @pulumi/pulumi
# ships, and policy packs through pulumi-analyzer-policy; it finds them beside
# pulumi or on PATH. Written only into a CLI folder this script made (under
# .cache); for a CLI found elsewhere they go on PATH, and that folder is never
# touched: it may be a developer's real installation.
_aicp_link_plugin_scripts() {
  local dir="$1" sdk="$_aicp_root/node_modules/@pulumi/pulumi" f
  # The CLI's release archive carries pulumi-analyzer-policy (policy packs); a CLI built from source does not: ours stands in.
  local scripts=("$sdk/pulumi-resource-pulumi-nodejs" "$sdk/pulumi-analyzer-policy")
  [ -f "$sdk/pulumi-analyzer-policy" ] || scripts[1]="$_aicp_root/tools/policy/pulumi-analyzer-policy"
  case "$dir/" in
    "$_aicp_cache"/*)
      for f in "${scripts[@]}"; do
        [ -f "$f" ] || continue
        cmp -s "$f" "$dir/$(basename "$f")" || { cp "$f" "$dir/" && chmod +x "$dir/$(basename "$f")"; }
      done ;;
    *)
      [ -d "$sdk" ] && export PATH="$sdk:$PATH"
      [ -f "$sdk/pulumi-analyzer-policy" ] || export PATH="$_aicp_root/tools/policy:$PATH" ;;
  esac
}

_aicp_pulumi() {
  local want dir
  want="$(_aicp_pinned_pulumi)"
  [ -n "$want" ] || { _aicp_fail "cannot read the @pulumi/pulumi version from package.json"; return 1; }
  if ! dir="$(_aicp_find_pulumi "$want")"; then
    _aicp_build_pulumi "$want" || return 1
    dir="$_aicp_cache/pulumi/v$want/bin"
  fi
  export PATH="$dir:$PATH"
  _aicp_link_plugin_scripts "$dir"
  # A CLI built here has no nodejs language host (the Go module proxy serves
  # none); put the project's small one beside it. A normal install has its own.
  if [ "$dir" = "$_aicp_cache/pulumi/v$want/bin" ]; then
    local f
    for f in pulumi-language-nodejs language-host.js; do
      cmp -s "$_aicp_root/tools/language-host/$f" "$dir/$f" || cp "$_aicp_root/tools/language-host/$f" "$dir/$f"
    done
    chmod +x "$dir/pulumi-language-nodejs"
  fi
  export AICP_PULUMI="$dir/pulumi"
  _aicp_log "pulumi $("$dir/pulumi" version) from ${dir/#$_aicp_root/.}"
}

_aicp_env() {
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  export PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK="${PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK:-false}"
  export AICP_ROOT="$_aicp_root"
}

# Optional, unlike node and pulumi: a machine without python3 (or without PyPI)
# still builds and runs every other test; test/conformance/ then fails with a
# message naming scripts/pyclients.sh. So this never makes bootstrap fail.
_aicp_pyclients() {
  local py
  if ! command -v python3 >/dev/null 2>&1; then
    _aicp_log "python3 not found: AICP_PYCLIENTS_PYTHON left unset (the published-client conformance test needs it; see scripts/pyclients.sh)"
    return 0
  fi
  if py="$(bash "$_aicp_root/scripts/pyclients.sh")" && [ -n "$py" ]; then
    export AICP_PYCLIENTS_PYTHON="$py"
    _aicp_log "published Python clients from ${py/#$_aicp_root/.}"
  else
    _aicp_log "the published Python clients could not be installed (see above): AICP_PYCLIENTS_PYTHON left unset"
  fi
  return 0
}

# AICP_BOOTSTRAP=node provisions Node only: what build, typecheck, lint and the
# unit and contract tests need (no pulumi CLI, no Go, no Python);
# AICP_BOOTSTRAP=pulumi provisions Node and the CLI, not the Python clients.
_aicp_bootstrap() {
  case "${AICP_BOOTSTRAP:-}" in
    node) _aicp_node ;;
    pulumi) _aicp_node && _aicp_pulumi && _aicp_env ;;
    *) _aicp_node && _aicp_pulumi && _aicp_env && _aicp_pyclients ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  _aicp_bootstrap
  echo "node: $(command -v node) ($(node --version))"
  [ "${AICP_BOOTSTRAP:-}" = "node" ] && exit 0
  echo "pulumi: $AICP_PULUMI ($("$AICP_PULUMI" version))"
  [ "${AICP_BOOTSTRAP:-}" = "pulumi" ] && exit 0
  echo "python clients: ${AICP_PYCLIENTS_PYTHON:-not installed (no python3)}"
else
  _aicp_bootstrap
fi
