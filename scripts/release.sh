#!/usr/bin/env bash
# Writes every artifact a release publishes into one folder, and checks each
# as its registry would:
#
#   npm run release -- [--version X.Y.Z] [--out DIR]     (default: release/v<version>)
#
# The version is package.json's, the one place it is kept: schema.json, the
# generated SDKs and the policy pack carry it (`npm run generate`, checked
# here); --version only confirms it. To release another version: `npm version
# X.Y.Z --no-git-tag-version`, `npm run generate`, a CHANGELOG.md section
# `## X.Y.Z`, commit, then this.
#
# The folder (CONTRIBUTING.md, "Releasing"):
#   pulumi-aicp-<v>.tgz                        npm: the TypeScript package
#   pulumi-aicp-plugin-<v>.tgz                 npm: the plugin's TypeScript SDK
#   pulumi_aicp-<v>-py3-none-any.whl, .tar.gz  PyPI: the Python SDK (pip install pulumi-aicp)
#   pulumi-aicp-go-sdk-v<v>.tar.gz             the Go module github.com/…/sdks/go, tagged sdks/go/v<v>
#   pulumi-resource-aicp-v<v>-linux-{amd64,arm64}.tar.gz   the plugin executables, where pluginDownloadURL points
#   CHANGELOG.md                               this version's section
#   SHA256SUMS                                 of all the above
# Checks: a clean working copy (--allow-dirty for a rehearsal), built afresh
# in a staging folder; `npm publish --dry-run` of both npm tarballs, `twine
# check` of the Python ones, the schema and SDKs at this version, the plugin
# executable starting. Darwin and
# Windows plugin executables are not made here (scripts/plugin-executable.sh
# says why). Prints the folder as its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A relative --out is the caller's (npm run sets INIT_CWD to where it was typed).
caller="${INIT_CWD:-$PWD}"
. "$root/scripts/bootstrap.sh" >&2
cd "$root"
version="$(node -p 'require("./package.json").version')"
out=""
allow_dirty=""
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ "$2" = "$version" ] || { echo "release: package.json says $version, not $2: set it with npm version $2 --no-git-tag-version, then npm run generate" >&2; exit 1; }; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    # For the rehearsal (test/e2e/release.test.ts) in a working copy: a real release is made from a commit.
    --allow-dirty) allow_dirty=1; shift ;;
    *) echo "release: unknown argument $1 (use --version X.Y.Z, --out DIR, --allow-dirty)" >&2; exit 1 ;;
  esac
done
case "${out:-}" in "") out="$root/release/v$version" ;; /*) ;; *) out="$caller/$out" ;; esac
out="$(mkdir -p "$out" && cd "$out" && pwd)"
case "$root/" in "$out"/*) echo "release: --out $out holds the repository; give a folder of its own" >&2; exit 1 ;; esac
step() { printf '\n==> %s\n' "$*" >&2; }

# Cleared only when it is empty or an earlier release folder (it has SHA256SUMS): never a folder of other files.
if [ -n "$(ls -A "$out")" ] && [ ! -f "$out/SHA256SUMS" ]; then
  echo "release: $out holds other files; give --out an empty folder or an earlier release folder" >&2
  exit 1
fi

if [ -z "$allow_dirty" ] && [ -n "$(git status --porcelain)" ]; then
  echo "release: the working copy has changes (git status); release a commit" >&2
  exit 1
fi

step "a clean build of the working copy in a staging folder"
# Never the clone's dist/, which may hold modules whose source is gone; the clone's node_modules and .cache are shared.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/src"
# Tracked and new files as they are in the working copy; a tracked file deleted there is left out.
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
  tar --null -T - -cf - | tar -xf - -C "$stage/src"
ln -s "$root/node_modules" "$stage/src/node_modules"
ln -s "$root/.cache" "$stage/src/.cache"
root="$stage/src"
cd "$root"
npm run --silent build >&2

step "version $version: schema, SDKs and pack agree"
node dist/plugin/schema-build.js --check >&2
for file in sdks/nodejs/package.json sdks/python/pulumi_aicp/pulumi-plugin.json sdks/go/aicp/pulumi-plugin.json policy/pack/package.json; do
  [ "$(node -p "const j = require('./$file'); j.version ?? j.pulumi?.version")" = "$version" ] || { echo "release: $file is not at $version: npm run generate" >&2; exit 1; }
done
notes="$(awk -v v="$version" '$0 ~ "^## " { on = ($2 == v && NF == 2) } on' CHANGELOG.md)"
[ -n "$notes" ] || { echo "release: CHANGELOG.md has no section for $version (## $version)" >&2; exit 1; }

rm -rf "${out:?}"/*
printf '%s\n' "$notes" >"$out/CHANGELOG.md"

step "npm: pulumi-aicp and pulumi-aicp-plugin"
npm pack --silent --pack-destination "$out" >/dev/null
bash scripts/nodejs-sdk.sh "$out" >/dev/null
for tarball in "$out"/pulumi-aicp-"$version".tgz "$out"/pulumi-aicp-plugin-"$version".tgz; do
  npm publish --dry-run "$tarball" >"$out/.publish.log" 2>&1 || { cat "$out/.publish.log" >&2; exit 1; }
done
rm -f "$out/.publish.log"

step "PyPI: pulumi_aicp wheel and sdist"
venv="$root/.cache/release-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "build==$(bash scripts/pin.sh build)" "twine==$(bash scripts/pin.sh twine)" >&2
cp -r sdks/python "$stage/python"
"$venv/bin/python" -m build --outdir "$out" "$stage/python" >&2
"$venv/bin/python" -m twine check --strict "$out"/pulumi_aicp-"$version"* >&2

step "Go: the module sdks/go, tag sdks/go/v$version"
tar -czf "$out/pulumi-aicp-go-sdk-v$version.tar.gz" -C sdks go

step "plugin executables"
bash scripts/plugin-executable.sh "$out" amd64 arm64 >/dev/null

(cd "$out" && sha256sum -- * >SHA256SUMS)
step "release $version:"
(cd "$out" && ls -l | awk 'NR > 1 { printf "  %12d  %s\n", $5, $9 }') >&2
echo "$out"
