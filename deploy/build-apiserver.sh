#!/usr/bin/env bash
# Bundles the apiserver (apiserver/src/main.ts and everything it imports, node_modules included)
# into one CommonJS file that runs with plain `node`: no transpiler, no node_modules at run time.
# Usage: deploy/build-apiserver.sh [OUT_DIR]   (default: dist/apiserver; writes apiserver.cjs + .map)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist/apiserver}"
mkdir -p "$out"
cd "$root"
# esbuild comes with @backstage/cli; call the installed binary so npx never reaches for the network.
node_modules/.bin/esbuild apiserver/src/main.ts \
  --bundle --platform=node --target=node20 --format=cjs \
  --sourcemap --log-level=warning \
  --outfile="$out/apiserver.cjs"
echo "built $out/apiserver.cjs"
