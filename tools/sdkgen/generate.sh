#!/usr/bin/env bash
# Generates a Pulumi SDK from a package schema without language plugins:
#   bash tools/sdkgen/generate.sh <schema.json> <outdir> <python|go|nodejs>
#   bash tools/sdkgen/generate.sh --program nodejs  < request > response
# The second form answers one GenerateProgram request of the nodejs language
# host (tools/language-host), for `pulumi import` (program.go).
# The generator (main.go) is built from the Go module proxy once and cached in
# .cache/sdkgen/ under a hash of its sources, so an edit rebuilds it.
set -euo pipefail

die() { echo "sdkgen: $*" >&2; exit 1; }

usage="usage: bash tools/sdkgen/generate.sh <schema.json> <outdir> <python|go|nodejs> | --program nodejs"
if [ "${1:-}" = "--program" ]; then
  [ $# -eq 2 ] || die "$usage"
  args=(-program "$2")
else
  [ $# -eq 3 ] || die "$usage"
  schema="$1" out="$2" lang="$3"
  case "$lang" in python | go | nodejs) ;; *) die "unknown language '$lang' (want python, go or nodejs)" ;; esac
  [ -f "$schema" ] || die "schema not found: $schema"
  args=(-schema "$schema" -out "$out" -lang "$lang")
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="$root/.cache/sdkgen"

command -v go >/dev/null 2>&1 ||
  die "Go is not installed (or not on PATH); it is needed once to build the SDK generator from tools/sdkgen. Install Go 1.26+ from https://go.dev/dl/"

hash="$(cat "$here/go.mod" "$here/go.sum" "$here"/*.go | sha256sum | cut -c1-16)"
bin="$cache/sdkgen-$hash"
if [ ! -x "$bin" ]; then
  echo "sdkgen: building the generator (first run only; cached as ${bin#"$root"/})" >&2
  mkdir -p "$cache"
  # Same settings as scripts/bootstrap.sh: -mod=readonly makes the committed
  # go.sum the authority, so the unreachable checksum database is never asked.
  # Built to a temporary name and renamed, so an interrupted build never
  # leaves a broken binary that later runs would trust.
  (
    cd "$here" &&
      GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOSUMDB=off CGO_ENABLED=0 \
        go build -trimpath -ldflags "-s -w" -o "$bin.tmp.$$" .
  ) || { rm -f "$bin.tmp.$$"; die "go build of tools/sdkgen failed; see the output above"; }
  mv "$bin.tmp.$$" "$bin"
  # Binaries of earlier sources are 30 MB each and never used again.
  find "$cache" -maxdepth 1 -type f -name 'sdkgen-????????????????' ! -name "sdkgen-$hash" -delete
fi

exec "$bin" "${args[@]}"
