#!/usr/bin/env bash
# Runs one project command with the provisioned toolchain (Node 22, pulumi) first
# on PATH and the offline-safe Pulumi environment: every npm script goes through it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
exec "$@"
