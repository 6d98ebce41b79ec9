#!/usr/bin/env bash
# Set up what the tests need (Node 22, Blender 3.4 and the 4.3 and 5.2 of scripts/blenders.sh, Chromium, a Secret Service, Redis, zip tools, npm packages), then run every check.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
ensure_node
ensure_apt_packages
ensure_blenders
echo "node $(node --version), $(blender --version 2>/dev/null | head -1)"
for b in blender-4.3 blender-5.2; do
  if command -v "$b" >/dev/null; then echo "$b: $("$b" --version 2>/dev/null | head -1)"; fi
done
npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npm run build
node bin/renderdrop.js --version >/dev/null
npm test
