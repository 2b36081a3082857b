#!/usr/bin/env bash
# Runs Pulumi for a pipeline, from the Pulumi project's folder:
#   deploy.sh preview   on a change request: shows the diff, sends no write request
#   deploy.sh up        on main: applies, then writes the stack outputs as JSON
#
# Environment:
#   PULUMI_BACKEND_URL        state backend (e.g. s3://bucket/prefix or file://...);
#                             unset means Pulumi Cloud with PULUMI_ACCESS_TOKEN
#   PULUMI_CONFIG_PASSPHRASE  for self-managed backends' secrets
#   PULUMI_STACK              stack name (default: dev), created if missing
#   OUTPUTS_FILE              where `up` writes the outputs (default: stack-outputs.json)
#   PULUMI_PARALLEL           resource operations at once (default: 128). Each notebook's
#                             wait for Running holds one; the engine's default (4 per CPU)
#                             makes an up of 40 notebooks wait in turns (see bench/readiness.ts).
#                             For an up that creates or starts more than 128 notebooks, set
#                             it to at least their number
#   POLICY_PACK, POLICY_CONFIG  the guardrails pack (.../policy/pack/aicp-guardrails, or its folder) and its configuration JSON
#                             (docs/guardrails.md): both commands run it, so a mandatory rule
#                             or budget fails the preview and refuses the up
#   QY_ACCESS_KEY_ID, QY_SECRET_ACCESS_KEY, CORESHUB_USER_ID, AICP_ZONE, AICP_BASE_URL
#                             read by the provider when the stack config has no aicp:* value
set -euo pipefail
mode="${1:-}"
stack="${PULUMI_STACK:-dev}"
outputs="${OUTPUTS_FILE:-stack-outputs.json}"
parallel="${PULUMI_PARALLEL:-128}"
export PULUMI_SKIP_UPDATE_CHECK=true

case "$mode" in
  preview | up) ;;
  *) echo "usage: deploy.sh preview|up" >&2; exit 2 ;;
esac

if [ -n "${PULUMI_BACKEND_URL:-}" ]; then
  pulumi login --non-interactive "$PULUMI_BACKEND_URL" >/dev/null
fi
pulumi stack select "$stack" --create --non-interactive

policy=()
if [ -n "${POLICY_PACK:-}" ]; then
  policy=(--policy-pack "$POLICY_PACK")
  [ -z "${POLICY_CONFIG:-}" ] || policy+=(--policy-pack-config "$POLICY_CONFIG")
fi

if [ "$mode" = preview ]; then
  pulumi preview --diff --non-interactive --parallel "$parallel" "${policy[@]}"
else
  pulumi up --yes --non-interactive --parallel "$parallel" "${policy[@]}"
  pulumi stack output --json > "$outputs"
  echo "stack outputs written to $outputs"
fi
