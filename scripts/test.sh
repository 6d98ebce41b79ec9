#!/usr/bin/env bash
# Set up what the tests need (Node 22, Blender, Chromium, a Secret Service, Redis, zip tools, npm packages), then run every check.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
ensure_node
ensure_apt_packages
echo "node $(node --version), $(blender --version 2>/dev/null | head -1)"
npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npm run build
node bin/renderdrop.js --version >/dev/null
npm test
