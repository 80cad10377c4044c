#!/usr/bin/env bash
# Bundles the apiserver (apiserver/src/main.ts and everything it imports, node_modules included)
# into one CommonJS file that runs with plain `node`: no transpiler, no node_modules at run time.
# Usage: deploy/build-apiserver.sh [OUT_DIR]   (default: dist/apiserver; writes apiserver.cjs + .map)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist/apiserver}"
mkdir -p "$out"
cd "$root"
# The build's stamp, served at /version as kube-apiserver's ldflags stamp it. A docker build has
# no .git in its context: pass GIT_COMMIT and GIT_TREE_STATE (the Dockerfile's build args).
commit="${GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || true)}"
tree_state="${GIT_TREE_STATE:-}"
if [[ -z "$tree_state" && -n "$commit" ]] && git rev-parse HEAD >/dev/null 2>&1; then
  if [[ -z "$(git status --porcelain --untracked-files=no)" ]]; then tree_state=clean; else tree_state=dirty; fi
fi
build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
stamp="{\"gitCommit\":\"$commit\",\"gitTreeState\":\"$tree_state\",\"buildDate\":\"$build_date\"}"
# esbuild comes with @backstage/cli; call the installed binary so npx never reaches for the network.
node_modules/.bin/esbuild apiserver/src/main.ts \
  --bundle --platform=node --target=node20 --format=cjs \
  --sourcemap --log-level=warning \
  "--define:__DBAAS_BUILD__=$stamp" \
  --outfile="$out/apiserver.cjs"
echo "built $out/apiserver.cjs"
