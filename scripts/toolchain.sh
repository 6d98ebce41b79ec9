# Shared set-up for scripts/test.sh and scripts/start.sh: a Node 22.12+ toolchain and Debian packages.
# Source it, then call ensure_node and ensure_apt_packages (and ensure_blenders, from scripts/blenders.sh,
# for the Blender versions the tests render with besides the system's).

# Blender, FFmpeg (videos made from frames) and Chromium for the app; a Secret Service, Redis, Info-ZIP and 7-Zip for the tests.
APT_PACKAGES=(blender ffmpeg chromium gnome-keyring dbus dbus-daemon redis-server zip unzip p7zip-full strace python3-pytest python3-flake8)

node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

# Put a Node 22 toolchain first on PATH when the system one is older (from the npm package node@22).
ensure_node() {
  if node_ok; then return 0; fi
  local dir="$PWD/.toolchain"
  if [ ! -x "$dir/node_modules/.bin/node" ]; then
    echo "Installing Node.js 22 into $dir (the system Node.js is $(node --version 2>/dev/null || echo missing))"
    npm install --prefix "$dir" --no-save --no-audit --no-fund node@22 >/dev/null
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
  # Native modules (better-sqlite3) compile against this Node's headers: point node-gyp at them.
  local header
  header=$(find "$dir/node_modules/node/node_modules" -path '*/include/node/node.h' 2>/dev/null | head -1)
  if [ -n "$header" ]; then export npm_config_nodedir="${header%/include/node/node.h}"; fi
  node_ok || { echo "Could not set up Node.js 22.12+"; return 1; }
}

# Install the Debian packages the tests use (Blender, Chromium, a Secret Service) when any is missing.
ensure_apt_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing ${missing[*]} and no apt-get here: install them with your package manager."
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  echo "Installing ${missing[*]} with apt"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

source "$(dirname "${BASH_SOURCE[0]}")/blenders.sh"
