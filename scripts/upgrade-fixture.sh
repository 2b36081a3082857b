#!/usr/bin/env bash
# Records what an earlier version of this package left behind, for the
# upgrade test (test/e2e/upgrade.test.ts): a stack made by that version, and
# the emulator's state it made, so that the current build can be shown to
# preview that stack with no change.
#
#   bash scripts/upgrade-fixture.sh [commit]     (default: d0c1869, the last
#                                                 commit before the Notebook
#                                                 field-table refactor)
#
# In a temporary folder it removes at the end, with THAT version (a git
# worktree of the commit, built): packs the package and the plugin, starts
# its emulator with `--state`, runs `pulumi up` of two fixed programs in fresh
# file backends (typescript/: the package's dynamic resources, project
# aicp-upgrade; yaml/: the plugin, project aicp-yaml; stack ci in both), checks
# that the same version previews no change (a fixture that already differs
# for its own version would prove nothing), and writes into
# test/fixtures/upgrade/<short commit>/ per program its `pulumi stack export`
# (secrets encrypted with the passphrase below; stackTrace and sourcePosition,
# which name this machine's folders, left out) and the program, the
# emulator's state file, and a README.md saying how they were made.
#
# The stacks are configured as test/support/cli-project.ts configures its
# projects, through the provider's environment fallbacks (AICP_BASE_URL,
# QY_ACCESS_KEY_ID, QY_SECRET_ACCESS_KEY, CORESHUB_USER_ID, AICP_ZONE), so no
# port or key is in the stacks' configuration, and with its test passphrase
# `cli-passphrase` (PULUMI_CONFIG_PASSPHRASE), which the upgrade test uses to
# import the stacks. The keys are the emulator's defaults (test/support/emulator.ts).
#
# Needs what the engine tests need: scripts/bootstrap.sh's Node 22 and pulumi
# CLI, and Go (or a cached build) for the YAML language host.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="${1:-d0c1869}"
cd "$root"
full="$(git rev-parse --verify "$commit^{commit}")"
short="$(git rev-parse --short=7 "$full")"
out="$root/test/fixtures/upgrade/$short"
passphrase="cli-passphrase"

step() { printf '\n==> %s\n' "$*" >&2; }

step "toolchain (this checkout's scripts/bootstrap.sh)"
AICP_BOOTSTRAP_QUIET=1 . "$root/scripts/bootstrap.sh"
yaml_host="$(bash "$root/tools/yaml-host/build.sh" | tail -n 1)"

tmp="$(mktemp -d)"
src="$tmp/src"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null || true; fi
  git -C "$root" worktree remove --force "$src" 2>/dev/null || true
  git -C "$root" worktree prune
  rm -rf "$tmp"
}
trap cleanup EXIT

step "worktree of $short"
git worktree add --quiet --detach "$src" "$full"
ln -s "$root/node_modules" "$src/node_modules"
if ! (cd "$src" && npm run --silent build >&2); then
  step "this checkout's node_modules do not build $short: npm ci there"
  rm "$src/node_modules"
  (cd "$src" && npm ci --no-audit --no-fund --loglevel=error >&2 && npm run --silent build >&2)
fi
version="$(node -p 'require(process.argv[1]).version' "$src/package.json")"
pulumi_version="$(node -p 'require(process.argv[1]).devDependencies["@pulumi/pulumi"]' "$src/package.json")"

step "package and plugin of $short (pulumi-aicp $version, @pulumi/pulumi $pulumi_version)"
mkdir -p "$tmp/programs"
tarball="$(cd "$src" && npm pack --silent --pack-destination "$tmp")"
cat >"$tmp/programs/package.json" <<JSON
{ "name": "aicp-upgrade-programs", "private": true, "dependencies": { "pulumi-aicp": "file:$tmp/$tarball", "@pulumi/pulumi": "$pulumi_version" } }
JSON
(cd "$tmp/programs" && npm install --prefer-offline --no-audit --no-fund --loglevel=error >&2)
# The first versions had no provider plugin: their fixture has the TypeScript front only.
archive=""
if [ -f "$src/scripts/plugin-pack.sh" ]; then
  archive="$(cd "$src" && AICP_BOOTSTRAP=node bash scripts/plugin-pack.sh "$tmp/plugin" | tail -n 1)"
fi

step "emulator of $short with --state"
node "$src/dist/emulator/cli.js" --port 0 --state "$tmp/emulator-state.json" --ready-delay-ms 200 >"$tmp/emulator.log" 2>&1 &
emulator_pid=$!
url=""
for _ in $(seq 1 100); do
  url="$(sed -n 's/^AICP emulator listening on //p' "$tmp/emulator.log" | head -n 1)"
  [ -n "$url" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$tmp/emulator.log" >&2; echo "the emulator did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the emulator did not say where it listens" >&2; exit 1; }

# Runs pulumi in project folder $1 with its own PULUMI_HOME and file backend under $tmp/home-<folder name>.
in_project() {
  local dir="$1" home
  home="$tmp/home-$(basename "$dir")"
  shift
  mkdir -p "$home/state"
  (cd "$dir" && env PULUMI_HOME="$home/pulumi-home" PULUMI_BACKEND_URL="file://$home/state" PULUMI_CONFIG_PASSPHRASE="$passphrase" \
    PATH="$yaml_host:$PATH" PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true \
    AICP_BASE_URL="$url" QY_ACCESS_KEY_ID=AKIDEMULATOR QY_SECRET_ACCESS_KEY=emulator-secret CORESHUB_USER_ID=usr-emulator AICP_ZONE=xb3 \
    AICP_POLL_INTERVAL_MS=100 "$@")
}

# Creates stack ci in project folder $1, brings it up, checks that its own version previews no change, exports it to $2.
up_and_export() {
  local dir="$1" export_to="$2"
  in_project "$dir" pulumi stack init ci --non-interactive >&2
  in_project "$dir" pulumi up --yes --skip-preview --non-interactive --stack ci >&2
  in_project "$dir" pulumi preview --expect-no-changes --diff --non-interactive --stack ci >&2
  in_project "$dir" pulumi stack export --stack ci >"$tmp/export.json"
  # The engine's debugging aids, which name folders of this machine (the language host's own file among
  # the stack frames): not part of what a preview compares, and not to be committed.
  node -e '
    const [from, to] = process.argv.slice(1);
    const state = JSON.parse(require("fs").readFileSync(from, "utf8"));
    for (const r of state.deployment.resources ?? []) {
      delete r.stackTrace;
      delete r.sourcePosition;
    }
    require("fs").writeFileSync(to, JSON.stringify(state, null, 4) + "\n");
  ' "$tmp/export.json" "$export_to"
}

mkdir -p "$tmp/out/typescript" "$tmp/out/yaml"

step "typescript: the package's dynamic resources"
# Below the folder where the package is installed, as a user's project is.
ts="$tmp/programs/upgrade"
mkdir -p "$ts"
printf 'name: aicp-upgrade\nruntime: nodejs\n' >"$ts/Pulumi.yaml"
printf '{ "name": "aicp-upgrade", "main": "index.js" }\n' >"$ts/package.json"
cat >"$ts/index.js" <<'JS'
// The upgrade fixture's TypeScript-front program (written by scripts/upgrade-fixture.sh).
"use strict";
const pulumi = require("@pulumi/pulumi");
const aicp = require("pulumi-aicp");

const group = new aicp.ResourceGroup("team", {
  skuId: "sku-gpu",
  podTypes: ["instance", "job"],
  description: "upgrade fixture",
  customizeEnable: true,
});

// Many fields: an explicit name, a custom image with registry credentials, envs with a secret, times, a GPU on a node of a platform group.
const full = new aicp.Notebook("full", {
  name: "upgrade-full",
  chargeMode: "elastic",
  duration: 3600,
  image: "registry.example.com/team/jupyter:1.0",
  imageType: "custom",
  serverType: "jupyter",
  customImageSecret: { hasAuth: true, username: "robot", password: "registry-pass-upgrade" },
  envs: [
    { name: "MODE", value: "train" },
    { name: "API_TOKEN", value: pulumi.secret("token-upgrade-5e1c") },
  ],
  stopTime: "2099-01-01T18:00:00Z",
  autoDeleteTime: "2099-06-01T00:00:00Z",
  desiredState: "Running",
  readyTimeoutSeconds: 300,
  replicaSpecs: { specs: "rgn-4090x1", rgId: "rg-publicgpu001", customGpu: 1, templateId: 1021 },
  volumeSpecs: [{ fileSet: "datasets", mountPath: "/data", volumeType: "pfs", permission: "ro" }],
  pip: "numpy==2.1.0",
});

// Auto-named, defaults everywhere else.
const auto = new aicp.Notebook("auto", {
  chargeMode: "elastic",
  duration: 3600,
  image: "jupyter:1",
  imageType: "official",
  serverType: "code_server",
  replicaSpecs: { specs: "sku-1", customCpu: 2 },
});

exports.groupId = group.rgId;
exports.fullId = full.id;
exports.autoName = auto.name;
JS
up_and_export "$ts" "$tmp/out/typescript/stack.json"
cp "$ts/index.js" "$tmp/out/typescript/index.js"

yaml="$tmp/yaml"
if [ -n "$archive" ]; then
step "yaml: the provider plugin"
mkdir -p "$yaml"
cat >"$yaml/Pulumi.yaml" <<'YAML'
# The upgrade fixture's plugin-front program (written by scripts/upgrade-fixture.sh).
name: aicp-yaml
runtime: yaml
resources:
  team:
    type: aicp:index:ResourceGroup
    properties:
      skuId: sku-1
      podTypes: [job, instance]
      description: upgrade fixture
  full:
    type: aicp:index:Notebook
    properties:
      name: upgrade-yaml-full
      chargeMode: elastic
      duration: 3600
      image: registry.example.com/team/jupyter:1.0
      imageType: custom
      serverType: jupyter
      customImageSecret:
        hasAuth: true
        username: robot
        password: registry-pass-upgrade
      envs:
        - name: MODE
          value: train
        - name: API_TOKEN
          value:
            fn::secret: token-upgrade-5e1c
      stopTime: "2099-01-01T18:00:00Z"
      autoDeleteTime: "2099-06-01T00:00:00Z"
      desiredState: Running
      readyTimeoutSeconds: 300
      replicaSpecs:
        specs: rgn-4090x1
        rgId: rg-publicgpu001
        customGpu: 1
        templateId: 1021
      volumeSpecs:
        - fileSet: datasets
          mountPath: /data
          volumeType: pfs
          permission: ro
      pip: numpy==2.1.0
  auto:
    type: aicp:index:Notebook
    properties:
      chargeMode: elastic
      duration: 3600
      image: jupyter:1
      imageType: official
      serverType: code_server
      replicaSpecs:
        specs: sku-1
        customCpu: 2
outputs:
  groupId: ${team.rgId}
  fullId: ${full.uuid}
  autoName: ${auto.name}
YAML
in_project "$yaml" pulumi plugin install resource aicp "$version" --file "$archive" >&2
up_and_export "$yaml" "$tmp/out/yaml/stack.json"
cp "$yaml/Pulumi.yaml" "$tmp/out/yaml/Pulumi.yaml"
else
  step "yaml: none, $short has no provider plugin"
  rmdir "$tmp/out/yaml"
fi

step "stop the emulator; write $out"
kill "$emulator_pid"
wait "$emulator_pid" 2>/dev/null || true
emulator_pid=""
cp "$tmp/emulator-state.json" "$tmp/out/emulator-state.json"
if [ -n "$archive" ]; then
  yaml_line="- \`yaml/\`: project \`aicp-yaml\`, stack \`ci\`, the provider plugin $version installed from its archive: \`Pulumi.yaml\` (the program) and \`stack.json\`."
else
  yaml_line="- no \`yaml/\`: $short had no provider plugin."
fi
cat >"$tmp/out/README.md" <<MD
# Upgrade fixture: stacks made by $short

Written by \`bash scripts/upgrade-fixture.sh $short\` (commit $full, pulumi-aicp $version
with @pulumi/pulumi $pulumi_version, pulumi CLI $(pulumi version)); read by
test/e2e/upgrade.test.ts, which previews these stacks with the current build and expects no update or replacement, only the additions CHANGELOG.md names.
Do not edit these files by hand: run the script again.

The script built that commit in a temporary \`git worktree\`, started its emulator with
\`--state\`, and ran \`pulumi up\` of each program with that version, each in a fresh local
file backend, then \`pulumi preview --expect-no-changes\` with the same version:

- \`typescript/\`: project \`aicp-upgrade\`, stack \`ci\`, the package's dynamic resources:
  \`index.js\` (the program) and \`stack.json\` (\`pulumi stack export\`).
$yaml_line
- \`emulator-state.json\`: the emulator's state file after both updates.

Each resource's \`stackTrace\` and \`sourcePosition\` were left out of \`stack.json\`: the engine's
debugging aids, which name folders of the machine that ran the script; a preview does not compare them.

The provider was configured through its environment fallbacks (the emulator's default keys, user
\`usr-emulator\`, zone \`xb3\`), as test/support/cli-project.ts does, so the stacks hold no port.
Secrets in \`stack.json\` are encrypted with the test passphrase \`cli-passphrase\`
(\`PULUMI_CONFIG_PASSPHRASE\`); the registry password and the secret env value are test values.
MD
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -r "$tmp/out" "$out"
step "done: ${out#"$root"/}"
