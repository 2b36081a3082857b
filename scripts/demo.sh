#!/usr/bin/env bash
# The quickstart in one command: `npm run demo` deploys examples/quickstart to a
# local emulator of the platform; `npm run demo -- --destroy` tears it down.
# `npm run demo -- --python` (and `-- --python --destroy`) does the same with
# the Python quickstart (examples/quickstart-python) through the provider
# plugin, installed from its archive, and the generated Python SDK.
# Everything it keeps (state backend, emulator state, Pulumi home) lives in
# .pulumi-state/, which git ignores. Running it twice shows no changes the
# second time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
action=up
language=typescript
for arg in "$@"; do
  case "$arg" in
    --destroy) action=destroy ;;
    --python) language=python ;;
    *) echo "usage: npm run demo [-- --python] [-- --destroy]" >&2; exit 2 ;;
  esac
done
state="${AICP_DEMO_STATE:-$root/.pulumi-state}"
step() { printf '\n==> %s\n' "$*"; }

step "1/7 Toolchain: Node 22 and the pulumi CLI"
. scripts/bootstrap.sh

step "2/7 Dependencies"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
  . scripts/bootstrap.sh
else
  echo "node_modules is up to date"
fi

step "3/7 Build"
if [ -f dist/sdk/index.js ] && [ -z "$(find sdk provider emulator client functions plugin cli policy -name '*.ts' -newer dist/sdk/index.js | head -n 1)" ]; then
  echo "dist/ is up to date"
else
  # From clean: a compiled file whose source moved away would otherwise stay, and be packed (package.json's build does the same).
  rm -rf dist
  node_modules/.bin/tsc -p tsconfig.json
fi
# The example requires the package by name, as a user's program does.
ln -sfn .. node_modules/pulumi-aicp

step "4/7 Emulator of the AICP platform (state kept in $state)"
mkdir -p "$state"
log="$state/emulator.log"
# A fixed port, recorded in the state folder: `pulumi destroy` does not run
# the program and reaches the platform at the aicp:baseUrl recorded in the
# stack's state by the last update, so --destroy uses the port that update
# used. An up takes AICP_DEMO_PORT, else the recorded port, else 18790.
recorded_port="$state/demo-port-$language"
if [ "$action" = destroy ] && [ -s "$recorded_port" ]; then
  port="$(cat "$recorded_port")"
  if [ -n "${AICP_DEMO_PORT:-}" ] && [ "$AICP_DEMO_PORT" != "$port" ]; then
    echo "AICP_DEMO_PORT=$AICP_DEMO_PORT ignored: the stack's last up reached the emulator on port $port (recorded in $recorded_port)"
  fi
elif [ -z "${AICP_DEMO_PORT:-}" ] && [ -s "$recorded_port" ]; then
  port="$(cat "$recorded_port")"
else
  port="${AICP_DEMO_PORT:-18790}"
fi
node dist/emulator/cli.js --port "$port" --state "$state/emulator.json" > "$log" 2>&1 &
emulator_pid=$!
trap 'kill "$emulator_pid" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^AICP emulator listening on //p' "$log" | head -n 1)
  [ -n "$url" ] && break
  if ! kill -0 "$emulator_pid" 2>/dev/null; then
    cat "$log"
    if grep -q EADDRINUSE "$log" && [ "$action" = destroy ] && [ -s "$recorded_port" ]; then
      echo "port $port is taken; the stack's last up reached the emulator there (recorded in $recorded_port): free it and run the destroy again" >&2
    elif grep -q EADDRINUSE "$log"; then
      echo "port $port is taken: set AICP_DEMO_PORT to a free port, e.g. AICP_DEMO_PORT=$((port + 1)) npm run demo${*:+ -- $*}" >&2
    else
      echo "the emulator did not start" >&2
    fi
    exit 1
  fi
  sleep 0.1
done
[ -n "$url" ] || { echo "the emulator did not report its address" >&2; exit 1; }
echo "listening on $url"
echo "$port" > "$recorded_port"

mkdir -p "$state/backend" "$state/home"
export PULUMI_HOME="$state/home"
export PULUMI_BACKEND_URL="file://$state/backend"
# Protects this demo's local state only; use a real secret for real stacks.
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-aicp-demo}"

if [ "$language" = python ]; then
  step "5/7 Provider plugin: packed and installed into $PULUMI_HOME"
  # Packed again only when the build changed since the archive was made, installed again only then
  # or when it is not installed: a second run changes nothing.
  version="$(node -p 'require("./package.json").version')"
  archive="$(ls -t "$state"/plugin/pulumi-resource-aicp-v*.tar.gz 2>/dev/null | head -n 1 || true)"
  if [ -n "$archive" ] && [ -z "$(find dist bin schema.json package.json -newer "$archive" -print -quit)" ]; then
    echo "the plugin archive $(basename "$archive") is up to date"
    [ -d "$PULUMI_HOME/plugins/resource-aicp-v$version" ] || pulumi plugin install resource aicp "$version" --file "$archive" --reinstall
  else
    archive="$(bash scripts/plugin-pack.sh "$state/plugin" | tail -n 1)"
    pulumi plugin install resource aicp "$version" --file "$archive" --reinstall
  fi
  step "6/7 Python: the pulumi package and the generated SDK (sdks/python) in .cache/python-sdk"
  py="$(bash scripts/python-sdk.sh)"
  step "7/7 $action examples/quickstart-python with Python's Automation API (stack dev)"
  AICP_DEMO_URL="$url" AICP_DEMO_WORKDIR="$state/python" "$py" examples/quickstart-python/deploy.py "$action"
  if [ "$action" = destroy ]; then
    printf '\nDone: the stack is empty (remove %s to forget it).\n' "$state"
  else
    printf '\nState: %s. Run it again to see no changes; tear down with: npm run demo -- --python --destroy\n' "$state"
  fi
  exit 0
fi

step "5/7 Stack dev on a local file backend ($state/backend)"
pulumi stack select dev --create --non-interactive
pulumi config set aicp:baseUrl "$url"
pulumi config set aicp:accessKeyId AKIDEMULATOR
pulumi config set --secret aicp:secretAccessKey emulator-secret
pulumi config set aicp:userId usr-emulator
pulumi config set aicp:zone xb3
echo "configured aicp:baseUrl, aicp:accessKeyId, aicp:secretAccessKey (secret), aicp:userId, aicp:zone"

if [ "$action" = destroy ]; then
  step "6/7 pulumi destroy"
  pulumi destroy --yes --non-interactive
  step "7/7 Done: the stack is empty (remove $state to forget it)"
  exit 0
fi

step "6/7 pulumi up (examples/quickstart)"
pulumi up --yes --non-interactive

step "7/7 Stack outputs"
pulumi stack output --json
printf '\nState: %s. Run it again to see no changes; tear down with: npm run demo -- --destroy\n' "$state"
