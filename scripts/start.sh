#!/usr/bin/env bash
# Set up Renderdrop on this machine (Node 22, Blender, npm packages, build) and open the app in the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
ensure_node
ensure_apt_packages
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then npm ci --no-audit --no-fund; fi
npm run build
exec node bin/renderdrop.js web --open "$@"
