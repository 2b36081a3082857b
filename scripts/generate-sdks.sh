#!/usr/bin/env bash
# Writes the Python, Go and TypeScript SDKs of the plugin (sdks/python,
# sdks/go/aicp, sdks/nodejs) from schema.json with
# Pulumi's own code generators, built from the Go module proxy (tools/sdkgen):
#
#   bash scripts/generate-sdks.sh          after `npm run generate` changed schema.json
#   bash scripts/generate-sdks.sh <dir>    writes them under <dir> instead (the staleness test)
#
# sdks/go/go.mod and go.sum are kept: the generator writes none.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/sdks}"
rm -rf "$out/python" "$out/go/aicp" "$out/nodejs"
mkdir -p "$out/python" "$out/go" "$out/nodejs"
bash "$root/tools/sdkgen/generate.sh" "$root/schema.json" "$out/python" python
# pyproject.toml names README.md beside it as the long description PyPI shows; the generator writes it in the package.
cp "$out/python/pulumi_aicp/README.md" "$out/python/README.md"
bash "$root/tools/sdkgen/generate.sh" "$root/schema.json" "$out/go" go
bash "$root/tools/sdkgen/generate.sh" "$root/schema.json" "$out/nodejs" nodejs
