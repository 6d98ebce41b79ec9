#!/usr/bin/env bash
# Set up Renderdrop on this machine (Node 22, Blender, npm packages, build) and start it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
ensure_node
ensure_apt_packages
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then npm ci --no-audit --no-fund; fi
npm run build
DATA="${RENDERDROP_NODE_DATA:-$PWD/.renderdrop-node}"
if [ ! -f "$DATA/node.sqlite" ]; then
  echo "Creating an API key for this node (shown once; keep it):"
  node bin/renderdrop.js node keys create --data "$DATA" --name "first key"
fi
exec node bin/renderdrop.js node serve --data "$DATA" "$@"
