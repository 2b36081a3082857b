#!/usr/bin/env bash
# Installs the platform's two published Python clients, pinned, into a virtual
# environment under .cache/pyclients, and prints that environment's python path
# on stdout (progress goes to stderr). The conformance suite (test/conformance/)
# runs them, unchanged, against the emulator: they are the real clients nobody
# here wrote (docs/platform-api.md B6).
#
#   qingcloud-sdk         the operator's SDK, module qingcloud.qai
#   coreshub-mcp-server   the MCP server (pulls in mcp as a dependency)
# at the versions scripts/pins.env pins.
#
# Idempotent: when both pinned versions are already installed it only checks
# them (well under a second). Uses the machine's python3 (3.10+, the MCP
# server's floor; 3.11 on the project's machines) and PyPI through pip.
# Exits non-zero, with the reason on stderr, when python3 is missing or the
# install fails; scripts/bootstrap.sh treats that as "clients not available".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/pyclients"
py="$venv/bin/python"
packages=("qingcloud-sdk==$(bash "$root/scripts/pin.sh" qingcloud-sdk)" "coreshub-mcp-server==$(bash "$root/scripts/pin.sh" coreshub-mcp-server)")

log() { [ -n "${AICP_BOOTSTRAP_QUIET:-}" ] || echo "pyclients: $*" >&2; }

# True when the venv's python has exactly the pinned versions installed (their
# metadata only: importing them would cost a few hundred milliseconds).
installed() {
  [ -x "$py" ] || return 1
  "$py" - "${packages[@]}" >/dev/null 2>&1 <<'EOF'
import sys
from importlib import metadata
for spec in sys.argv[1:]:
    name, _, version = spec.partition("==")
    if metadata.version(name) != version:
        sys.exit(1)
EOF
}

if installed; then
  echo "$py"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || { echo "pyclients: error: python3 is not on PATH; install Python 3.10+ (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || {
  echo "pyclients: error: $(python3 --version 2>&1) is older than 3.10, which coreshub-mcp-server 0.3.0 requires" >&2
  exit 1
}

mkdir -p "$root/.cache"
# Two commands provisioning at once (a CI run and a developer's npm test) must
# not build the same venv over each other.
exec 9>"$root/.cache/pyclients.lock"
command -v flock >/dev/null 2>&1 && flock 9
if installed; then
  echo "$py"
  exit 0
fi

log "installing ${packages[*]} from PyPI into .cache/pyclients with $(python3 --version 2>&1)"
if [ ! -x "$py" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2 || { echo "pyclients: error: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
fi
"$py" -m pip install --quiet --disable-pip-version-check "${packages[@]}" >&2 || {
  echo "pyclients: error: pip install ${packages[*]} failed; see the output above" >&2
  exit 1
}
installed || { echo "pyclients: error: pip ran, but the pinned versions are not what is installed; remove .cache/pyclients and retry" >&2; exit 1; }
log "installed: $("$py" -m pip list --format=freeze 2>/dev/null | grep -E '^(qingcloud-sdk|coreshub-mcp-server|mcp)==' | tr '\n' ' ')"
echo "$py"
