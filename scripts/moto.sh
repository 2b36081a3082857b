#!/usr/bin/env bash
# Installs moto's S3 server, pinned (scripts/pins.env), into a virtual environment under .cache/moto, and
# prints the path of its `moto_server` on stdout (progress goes to stderr). The shared-backend tests
# (test/reliability/shared-backend.test.ts) keep a stack's state in a bucket it serves, as pipelines
# keep theirs in S3. Idempotent: with the pinned version installed it only checks it. Exits non-zero,
# with the reason on stderr, when python3 or the install fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/moto"
py="$venv/bin/python"
version="$(bash "$root/scripts/pin.sh" moto)"

installed() { [ -x "$venv/bin/moto_server" ] && [ "$("$py" -c 'from importlib import metadata; print(metadata.version("moto"))' 2>/dev/null)" = "$version" ]; }

if installed; then
  echo "$venv/bin/moto_server"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "moto: error: python3 is not on PATH (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
mkdir -p "$root/.cache"
exec 9>"$root/.cache/moto.lock"
command -v flock >/dev/null 2>&1 && flock 9
if ! installed; then
  echo "moto: installing moto[server]==$version from PyPI into .cache/moto" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2 || { echo "moto: error: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
  "$py" -m pip install --quiet --disable-pip-version-check "moto[server]==$version" >&2 || { echo "moto: error: pip install moto[server]==$version failed; see above" >&2; exit 1; }
  installed || { echo "moto: error: pip ran, but moto $version is not what is installed; remove .cache/moto and retry" >&2; exit 1; }
fi
echo "$venv/bin/moto_server"
