#!/usr/bin/env bash
# Builds the Pulumi YAML language host, pulumi-language-yaml, at the version
# pinned in tools/yaml-host/go.mod, into .cache/yaml-host/<version>/bin, once.
# A CLI built from tools/pulumi carries no language hosts, and the Go module
# proxy is the one place this machine can fetch this one from.
#
#   dir="$(bash tools/yaml-host/build.sh)" && export PATH="$dir:$PATH"
#
# The engine looks for pulumi-language-yaml on PATH (or next to pulumi), so
# the bin directory is printed as the last line of stdout; progress goes to
# stderr so that $(...) captures only the directory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

log() { echo "yaml-host: $*" >&2; }
fail() { echo "yaml-host: error: $*" >&2; exit 1; }

# One source of truth for the version: the pin in go.mod, which go.sum matches.
version="$(sed -n 's|^require github.com/pulumi/pulumi-yaml \(v[^ ]*\).*|\1|p' "$here/go.mod")"
[ -n "$version" ] || fail "cannot read the github.com/pulumi/pulumi-yaml version from $here/go.mod"

out="$root/.cache/yaml-host/$version/bin"
if [ -x "$out/pulumi-language-yaml" ]; then
  echo "$out"
  exit 0
fi

command -v go >/dev/null 2>&1 ||
  fail "Go is not installed (or not on PATH); pulumi-language-yaml $version is built from source and needs Go 1.26+ (https://go.dev/dl/)"

log "building pulumi-language-yaml $version with $(go version | cut -d' ' -f3) (first run only; cached in .cache/yaml-host)"
# -mod=readonly makes the committed go.sum the authority, so the checksum
# database (unreachable on some networks) is never consulted and a drifted
# go.mod fails loudly instead of being rewritten. GOTOOLCHAIN=local stops Go
# from trying to download a different toolchain from the network.
# The version is stamped the way upstream's .goreleaser.yml does; the engine
# reads it through GetPluginInfo.
# A temporary directory then a rename, so an interrupted build never leaves a
# binary that a later run would take as finished.
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
(
  cd "$here" &&
    GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOSUMDB=off CGO_ENABLED=0 \
      go build -trimpath \
      -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$version" \
      -o "$out.tmp/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
) || { rm -rf "$out.tmp"; fail "go build of pulumi-language-yaml $version failed; see the output above"; }
rm -rf "$out" && mv "$out.tmp" "$out"
log "built $out/pulumi-language-yaml"
echo "$out"
