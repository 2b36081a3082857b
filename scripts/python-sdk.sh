#!/usr/bin/env bash
# A Python environment for programs that use the generated Python SDK
# (sdks/python): the `pulumi` package at the version of @pulumi/pulumi pinned in
# package.json (scripts/pins.env), from PyPI, and pulumi_aicp from this checkout (reinstalled on
# every call, without its dependencies: a second or so). Prints the
# environment's python on stdout; progress goes to stderr.
#
#   py="$(bash scripts/python-sdk.sh)" && "$py" my_program.py
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/python-sdk"
py="$venv/bin/python"
pulumi_version="$(bash "$root/scripts/pin.sh" pulumi)"
command -v python3 >/dev/null 2>&1 || { echo "python-sdk: python3 is missing; install Python 3.10+ (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
[ -x "$py" ] || python3 -m venv "$venv" >&2
if ! "$py" -c "import sys; from importlib import metadata; sys.exit(metadata.version('pulumi') != sys.argv[1])" "$pulumi_version" 2>/dev/null; then
  echo "python-sdk: installing pulumi==$pulumi_version from PyPI" >&2
  "$py" -m pip install --quiet --disable-pip-version-check "pulumi==$pulumi_version" "parver==$(bash "$root/scripts/pin.sh" parver)" "semver==$(bash "$root/scripts/pin.sh" semver)" >&2
fi
"$py" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$root/sdks/python" >&2
echo "$py"
