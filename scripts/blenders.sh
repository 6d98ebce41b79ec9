# Blender 4.3 (Debian trixie) and 5.2 (Debian sid) next to the system's Blender 3.4, for the tests that
# render with every Blender version an artist uses.
#
# Source it (scripts/toolchain.sh does) and call ensure_blenders: each Blender is a Debian chroot made
# with debootstrap, cached outside the checkout in $RENDERDROP_BLENDERS_DIR (default
# /var/cache/renderdrop) so every clone on the machine reuses it:
#   blender/<suite>/   the chroot (built in a temporary folder, renamed there once complete)
#   bin/blender-4.3, bin/blender-5.2   run that chroot's Blender with this machine's paths (see below)
# ensure_blenders puts bin/ first on PATH. RENDERDROP_SKIP_BLENDERS=1 skips all of it outside CI; with
# CI set, a Blender that cannot be built fails the set-up. Needs root (or sudo), debootstrap and
# unshare (util-linux).
#
# Run directly, `bash scripts/blenders.sh` does what ensure_blenders does; `bash scripts/blenders.sh build
# SERIES SUITE [PACKAGE...]` builds one chroot (as root: ensure_blenders runs it through sudo when not root).

# Series, the Debian suite whose `blender` package is that series, and what that chroot needs besides
# RENDERDROP_BLENDER_PACKAGES (Debian's 5.2 leaves out the Python modules of its extensions add-on,
# which then fails to load with every file Blender opens).
RENDERDROP_BLENDER_CHROOTS=("4.3 trixie" "5.2 sid python3-cattr python3-requests")
# What goes into every chroot; a cached chroot made from another list is built again.
RENDERDROP_BLENDER_PACKAGES="blender fonts-liberation"

renderdrop_blenders_dir() {
  echo "${RENDERDROP_BLENDERS_DIR:-/var/cache/renderdrop}"
}

# The Debian mirror this machine's apt uses (first `.../debian` URI of its sources), or nothing, in
# which case debootstrap uses its own default. RENDERDROP_DEBIAN_MIRROR overrides it.
renderdrop_debian_mirror() {
  if [ -n "${RENDERDROP_DEBIAN_MIRROR:-}" ]; then
    echo "$RENDERDROP_DEBIAN_MIRROR"
    return
  fi
  local files=()
  [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
  for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  [ ${#files[@]} -eq 0 ] && return 0
  grep -hoE '^[[:space:]]*(deb[[:space:]]+(\[[^]]*\][[:space:]]+)?|URIs:[[:space:]]*)[a-z]+://[^[:space:]]+' "${files[@]}" 2>/dev/null |
    grep -oE '[a-z]+://[^[:space:]]+' | sed 's:/*$::' | grep -E '/debian$' | head -1 || true
}

# The wrapper that runs the chroot ROOT's Blender: in a private mount namespace of its own (nothing to
# clean up afterwards, nothing seen by the rest of the machine), /proc, /dev, /sys, /tmp, /var/tmp,
# /home, /root, /work, /mnt, /media, /opt and /srv are bind-mounted at their own paths, plus the current
# folder when it lies elsewhere (a checkout under /var, say); then it changes to the
# current folder inside the chroot and execs Blender. Every step execs the next, so Blender keeps the
# wrapper's process id: signals sent to it reach Blender, and Blender's exit status is the wrapper's.
# The environment is passed on as it is.
renderdrop_blender_wrapper() {
  local series="$1" suite="$2" root="$3"
  cat <<EOF
#!/bin/sh
# Blender $series from the Debian $suite chroot in $root, with this machine's paths
# (made by Renderdrop's scripts/blenders.sh).
root='$root'
EOF
  cat <<'EOF'
if [ ! -x "$root/usr/bin/blender" ]; then
  echo "$0: no Blender in $root; run Renderdrop's scripts/test.sh to build it" >&2
  exit 127
fi
inner='
root=$1; here=$2; path=$3; shift 3
PATH=/usr/sbin:/usr/bin:/sbin:/bin
chroot=$(command -v chroot) || { echo "needs chroot (coreutils)" >&2; exit 127; }
bind() {
  [ -e "$1" ] || return 0
  [ -d "$root$1" ] || mkdir -p "$root$1" || return 1
  mount --rbind "$1" "$root$1"
}
outside=1
for d in /proc /dev /sys /tmp /var/tmp /home /root /work /mnt /media /opt /srv; do
  [ -d "$d" ] && [ ! -L "$d" ] || continue
  bind "$d" || exit 126
  case "$here/" in "$d"/*) outside=0 ;; esac
done
# The current folder elsewhere is mounted only where the chroot has nothing of its own (never over its /usr or /var/lib).
if [ "$outside" = 1 ] && [ "$here" != / ]; then
  if [ ! -e "$root$here" ] || { [ -d "$root$here" ] && [ -z "$(ls -A "$root$here")" ]; }; then
    bind "$here" || exit 126
  else
    here=/
  fi
fi
[ -d "$root$here" ] || here=/
PATH=$path
exec "$chroot" "$root" /usr/bin/env --chdir="$here" /usr/bin/blender "$@"
'
here=$(pwd -P 2>/dev/null || echo /)
# The tools come from the system folders whatever PATH says; Blender gets PATH as it was.
unshare=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin; command -v unshare) || { echo "$0: needs unshare (util-linux)" >&2; exit 127; }
if [ "$(id -u)" = 0 ]; then
  exec "$unshare" --mount --propagation private -- /bin/sh -c "$inner" sh "$root" "$here" "$PATH" "$@"
fi
exec "$unshare" --user --map-root-user --mount --propagation private -- /bin/sh -c "$inner" sh "$root" "$here" "$PATH" "$@"
EOF
}

# Build the chroot of one Blender series from Debian SUITE (as root), unless it is cached, and write its
# wrapper. The chroot is made in blender/.SUITE.build.* inside a private mount namespace (so no mount
# debootstrap or apt makes can outlive the build) and renamed to blender/SUITE only once Blender in it
# answers with the expected version; a build that was cut short is removed by the next one.
renderdrop_build_blender() {
  local series="$1" suite="$2"
  shift 2
  local packages="$RENDERDROP_BLENDER_PACKAGES${*:+ $*}"
  local dir; dir=$(renderdrop_blenders_dir)
  local cache="$dir/blender" final="$dir/blender/$suite" stamp=".renderdrop-blender"
  local recipe="$suite: $packages"
  mkdir -p "$cache" "$dir/bin" || return 1
  exec 9>"$cache/.lock"
  if ! flock -n 9; then
    echo "Blender $series: waiting for another build to finish"
    flock 9
  fi
  if renderdrop_blender_built "$suite" "$@"; then
    renderdrop_write_wrapper "$series" "$suite" "$final"
    return
  fi
  local leftover
  for leftover in "$cache/.$suite.build."* "$cache/.$suite.old."*; do
    [ -e "$leftover" ] || continue
    if grep -qF " $leftover/" /proc/self/mountinfo; then
      echo "Blender $series: $leftover has mounts in it; unmount them and remove it"
      return 1
    fi
    echo "Blender $series: removing an unfinished build ($leftover)"
    rm -rf --one-file-system "$leftover"
  done
  if ! command -v debootstrap >/dev/null 2>&1; then
    echo "Blender $series: installing debootstrap with apt"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; } || return 1
  fi
  local mirror; mirror=$(renderdrop_debian_mirror)
  local keyring=() script=()
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] && keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
  if [ -n "$mirror" ] && [ ! -e "/usr/share/debootstrap/scripts/$suite" ]; then script=(sid); fi
  local tmp log started=$SECONDS
  tmp=$(mktemp -d "$cache/.$suite.build.XXXXXX") && chmod 755 "$tmp" || return 1
  log="$cache/$suite.log"
  echo "Blender $series: building a Debian $suite chroot in $final (1 to 3 minutes, 1-1.5 GB; log: $log)"
  unshare --mount --propagation private -- bash -c "$(declare -f renderdrop_chroot_stages); renderdrop_chroot_stages \"\$@\"" \
    bash "$tmp" "$suite" "$series" "$mirror" "$packages" "${keyring[@]}" -- "${script[@]}" 9>&- 2>&1 |
    tee "$log" | grep --line-buffered '^Blender '
  if [ "${PIPESTATUS[0]}" != 0 ]; then
    echo "Blender $series: the build failed after $((SECONDS - started)) s; the end of $log:"
    tail -n 15 "$log" | sed 's/^/  /'
    rm -rf --one-file-system "$tmp"
    return 1
  fi
  printf '%s\n%s\nbuilt %s\n' "$recipe" "$(grep -m1 '^version: ' "$log" | cut -d' ' -f2-)" "$(date -u +%FT%TZ)" >"$tmp/$stamp"
  if [ -e "$final" ]; then
    local old; old=$(mktemp -u "$cache/.$suite.old.XXXXXX")
    mv -T "$final" "$old" && mv -T "$tmp" "$final" && rm -rf --one-file-system "$old"
  else
    mv -T "$tmp" "$final"
  fi || return 1
  echo "Blender $series: ready in $((SECONDS - started)) s, $(du -sh --one-file-system "$final" | cut -f1) on disk"
  renderdrop_write_wrapper "$series" "$suite" "$final"
}

# The build itself, run inside a private mount namespace: debootstrap, then Blender with apt inside the
# chroot, then a check that it starts and is the expected series. Arguments: ROOT SUITE SERIES MIRROR
# PACKAGES [debootstrap options] -- [debootstrap script].
renderdrop_chroot_stages() {
  set -euo pipefail
  local root="$1" suite="$2" series="$3" mirror="$4" packages="$5"
  shift 5
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  echo "Blender $series: debootstrap --variant=minbase $suite"
  # shellcheck disable=SC2086
  debootstrap --variant=minbase "${opts[@]}" "$suite" "$root" $mirror "$@"
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  # Blender lists mounted file systems from /etc/mtab, which minbase leaves out.
  [ -e "$root/etc/mtab" ] || ln -s ../proc/self/mounts "$root/etc/mtab"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  # This machine's clock may be past a Release file's Valid-Until; the signatures are still checked.
  printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' >"$root/etc/apt/apt.conf.d/99renderdrop"
  local apt=(env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 chroot "$root" apt-get -y)
  "${apt[@]}" update
  local candidate
  candidate=$(chroot "$root" apt-cache policy blender | sed -n 's/^ *Candidate: *//p')
  echo "Blender $series: Debian $suite has blender $candidate"
  case "$candidate" in
    "$series".*|*:"$series".*) ;;
    *) echo "Blender $series: Debian $suite now has blender $candidate, not $series.x; update RENDERDROP_BLENDER_CHROOTS in scripts/blenders.sh"; exit 1 ;;
  esac
  echo "Blender $series: apt-get install --no-install-recommends $packages"
  # shellcheck disable=SC2086
  "${apt[@]}" install --no-install-recommends $packages
  "${apt[@]}" clean
  rm -rf "$root"/var/lib/apt/lists/*_Packages "$root"/var/lib/apt/lists/*_Translation-*
  local version
  version=$(chroot "$root" /usr/bin/env HOME=/tmp /usr/bin/blender --version 2>/dev/null | head -1)
  echo "version: $version"
  case "$version" in
    "Blender $series".*) echo "Blender $series: $version installed" ;;
    *) echo "Blender $series: the installed Blender answered '$version', not Blender $series.x"; exit 1 ;;
  esac
}

# Whether the chroot of SUITE is built, from this list of extra packages (readable without root).
renderdrop_blender_built() {
  local suite="$1"
  shift
  local packages="$RENDERDROP_BLENDER_PACKAGES${*:+ $*}"
  local stamp; stamp="$(renderdrop_blenders_dir)/blender/$suite/.renderdrop-blender"
  [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$suite: $packages" ]
}

renderdrop_write_wrapper() {
  local series="$1" suite="$2" root="$3"
  local bin; bin="$(renderdrop_blenders_dir)/bin"
  mkdir -p "$bin"
  renderdrop_blender_wrapper "$series" "$suite" "$root" >"$bin/.blender-$series.new"
  chmod 755 "$bin/.blender-$series.new"
  mv -f "$bin/.blender-$series.new" "$bin/blender-$series"
}

# Make sure Blender 4.3 and 5.2 are built (or cached) and their wrappers are first on PATH. Outside CI,
# RENDERDROP_SKIP_BLENDERS=1 skips this (the tests that need them are then skipped, saying why).
ensure_blenders() {
  local dir; dir=$(renderdrop_blenders_dir)
  if [ -n "${RENDERDROP_SKIP_BLENDERS:-}" ] && [ "${RENDERDROP_SKIP_BLENDERS}" != 0 ]; then
    if [ -z "${CI:-}" ]; then
      echo "RENDERDROP_SKIP_BLENDERS is set: not building Blender 4.3 and 5.2 (their tests are skipped)"
      if [ -d "$dir/bin" ]; then export PATH="$dir/bin:$PATH"; fi
      return 0
    fi
    echo "RENDERDROP_SKIP_BLENDERS is ignored when CI is set: the tests need every Blender"
  fi
  if [ "$(uname -s)" != Linux ]; then
    echo "Blender 4.3 and 5.2 are built as Debian chroots, which needs Linux; set RENDERDROP_SKIP_BLENDERS=1 to go on without them."
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  local self="${BASH_SOURCE[0]}" entry failed=0
  for entry in "${RENDERDROP_BLENDER_CHROOTS[@]}"; do
    # shellcheck disable=SC2086
    set -- $entry
    if renderdrop_blender_built "${@:2}" && [ -x "$dir/bin/blender-$1" ] &&
      renderdrop_blender_wrapper "$1" "$2" "$dir/blender/$2" | cmp -s - "$dir/bin/blender-$1"; then
      continue
    fi
    # shellcheck disable=SC2086
    $sudo env RENDERDROP_BLENDERS_DIR="$dir" RENDERDROP_DEBIAN_MIRROR="${RENDERDROP_DEBIAN_MIRROR:-}" \
      bash "$self" build $entry || failed=1
  done
  export PATH="$dir/bin:$PATH"
  if [ "$failed" = 1 ]; then
    echo "Could not build every Blender; outside CI, RENDERDROP_SKIP_BLENDERS=1 goes on without them."
    return 1
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  if [ "${1:-}" = build ] && [ $# -ge 3 ]; then
    shift
    renderdrop_build_blender "$@"
    exit $?
  fi
  if [ $# -eq 0 ]; then
    ensure_blenders
    exit $?
  fi
  echo "usage: bash scripts/blenders.sh             (every Blender, as scripts/test.sh does)" >&2
  echo "       bash scripts/blenders.sh build SERIES SUITE [PACKAGE...]   (one, e.g. build 4.3 trixie)" >&2
  exit 2
fi
