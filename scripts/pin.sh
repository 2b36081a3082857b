#!/usr/bin/env bash
# Prints the exact version scripts/pins.env pins for NAME:   bash scripts/pin.sh node   -> 22.23.3
set -euo pipefail
file="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/pins.env"
[ $# -eq 1 ] || { echo "pin: usage: bash scripts/pin.sh NAME" >&2; exit 2; }
version="$(sed -n "s/^$1=\([^ #]*\).*/\1/p" "$file")"
[ -n "$version" ] || { echo "pin: scripts/pins.env pins no '$1'" >&2; exit 1; }
echo "$version"
