#!/usr/bin/env bash
# The local registries the release rehearsal publishes to
# (test/e2e/release.test.ts), installed once into .cache/rehearsal:
# Verdaccio (an npm registry) from the npm registry, pypiserver (a Python
# package index) from PyPI. Prints the folder; progress goes to stderr.
#
#   bash scripts/rehearsal-tools.sh   -> .cache/rehearsal (node_modules/.bin/verdaccio, venv/bin/pypi-server)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/.cache/rehearsal"
mkdir -p "$dir"
pin() { bash "$root/scripts/pin.sh" "$1"; }
if [ ! -x "$dir/node_modules/.bin/verdaccio" ]; then
  echo "rehearsal-tools: installing verdaccio $(pin verdaccio)" >&2
  # Verdaccio's dependencies ask for node-fetch by the dist-tag "cjs", which is 2.7.0 on the npm registry;
  # a registry mirror need not carry dist-tags, so the version is named.
  printf '{ "private": true, "overrides": { "node-fetch": "%s" } }\n' "$(pin node-fetch)" >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "verdaccio@$(pin verdaccio)" >&2)
fi
if [ ! -x "$dir/venv/bin/pypi-server" ]; then
  echo "rehearsal-tools: installing pypiserver $(pin pypiserver)" >&2
  command -v python3 >/dev/null 2>&1 || { echo "rehearsal-tools: python3 is missing; install Python 3.10+ (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
  python3 -m venv "$dir/venv" >&2
  "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check "pypiserver==$(pin pypiserver)" >&2
fi
echo "$dir"
