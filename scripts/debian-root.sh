#!/usr/bin/env bash
# A Debian root to build and test CaptureKit on another release than the machine's, as a user of
# that release would: its own apt packages, the machine's swift.org toolchain made available inside
# (as a user's swift.org install is), and this checkout bind-mounted at the same path.
#
#   scripts/debian-root.sh make [--release trixie]             debootstrap the root once (cached)
#   scripts/debian-root.sh run [--release trixie] -- CMD...    run CMD in the checkout, inside it
#   scripts/debian-root.sh toolchain                            the Swift toolchain run makes available
#
# Needs root (debootstrap, mounts, pivot_root). The root is cached under $CAPTUREKIT_ROOTS (default
# /var/cache/capturekit/roots), outside any git work tree, and reused until its recipe changes.
# Inside, the checkout's .build is its .build-RELEASE (the machine's own build stays apart), and
# `make test` installs the packages scripts/apt-packages.txt lists for that release itself,
# as it does on a fresh machine; the packages stay in the cached root for the next run.
set -euo pipefail
prog=${0##*/}
here="$(cd "$(dirname "$0")" && pwd)"
checkout="$(cd "$here/.." && pwd)"
recipe=1   # bump when what `make` puts in the root changes
cache=${CAPTUREKIT_ROOTS:-/var/cache/capturekit/roots}
release=trixie

die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 2; }
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

command=${1:-}; [ $# -gt 0 ] && shift
while [ $# -gt 0 ]; do
  case "$1" in
    --release) [ $# -ge 2 ] || die "--release needs a Debian code name (bookworm, trixie)"; release=$2; shift 2 ;;
    --) shift; break ;;
    *) die "unknown option '$1'; valid: --release NAME, then -- CMD for run" ;;
  esac
done
case "$release" in bookworm|trixie) ;; *) die "release '$release' is not one CaptureKit supports; valid: bookworm, trixie" ;; esac
[ "$command" = toolchain ] || [ "$(id -u)" = 0 ] || die "needs root (debootstrap, mounts, pivot_root)"
case "$cache" in "$checkout"|"$checkout"/*) die "CAPTUREKIT_ROOTS '$cache' is inside the checkout; pick a folder outside it" ;; esac
root="$cache/$release"
stamp="$root/.capturekit-root"

# The archive the machine's apt uses (deb.debian.org on a stock install).
mirror() {
  local uri
  uri=$({ grep -hE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'
          grep -hE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list 2>/dev/null | awk '{print $2}'; } \
        | grep -v -- '-security' | grep -E '^https?://' | head -n 1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

make_root() {
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "recipe=$recipe" ]; then return 0; fi
  command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
  local m; m=$(mirror)
  echo "$prog: debootstrapping $release from $m into $root" >&2
  rm -rf --one-file-system "$root.partial"
  mkdir -p "$cache"
  debootstrap --variant=minbase --components=main --include=ca-certificates,make,sudo "$release" "$root.partial" "$m" >&2
  {
    echo "deb $m $release main"
    echo "deb $m $release-updates main"
    echo "deb http://security.debian.org/debian-security $release-security main"
  } >"$root.partial/etc/apt/sources.list"
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root.partial/etc/apt/apt.conf.d/90capturekit"
  printf 'path-exclude=/usr/share/doc/*\npath-exclude=/usr/share/man/*\npath-exclude=/usr/share/info/*\n' \
    >"$root.partial/etc/dpkg/dpkg.cfg.d/90capturekit-nodoc"
  printf '#!/bin/sh\nexit 101\n' >"$root.partial/usr/sbin/policy-rc.d"; chmod 755 "$root.partial/usr/sbin/policy-rc.d"
  cp /etc/resolv.conf "$root.partial/etc/resolv.conf" 2>/dev/null || true
  rm -rf --one-file-system "$root"
  mv "$root.partial" "$root"
  echo "recipe=$recipe" >"$stamp"
}

# The machine's toolchain: $CAPTUREKIT_SWIFT, else the folder above swiftc's bin/
# (…/usr/bin/swiftc → …). sudo's own PATH may not have swiftc: .ci/run passes the folder it
# prints for `toolchain` before sudo.
toolchain() {
  if [ -n "${CAPTUREKIT_SWIFT:-}" ]; then
    [ -x "$CAPTUREKIT_SWIFT/usr/bin/swift" ] || die "CAPTUREKIT_SWIFT '$CAPTUREKIT_SWIFT' has no usr/bin/swift"
    echo "$CAPTUREKIT_SWIFT"; return
  fi
  local s; s=$(command -v swiftc) || die "no swiftc on PATH to make available inside the root; set CAPTUREKIT_SWIFT to a toolchain's folder"
  dirname "$(dirname "$(dirname "$(readlink -f "$s")")")"
}

run_in_root() {
  [ $# -gt 0 ] || die "run needs a command after --"
  make_root
  local swift_dir; swift_dir=$(toolchain)
  # A private mount namespace: every mount below goes when the command ends, however it ends,
  # and none reaches the machine's own /dev or /sys.
  exec unshare --mount --propagation private -- "$0" _inside --release "$release" -- "$swift_dir" "$@"
}

inside() {
  local swift_dir=$1; shift
  # The root is a mount of its own, so that it can become this namespace's root (pivot_root
  # below): inside a mere chroot the kernel refuses new user and mount namespaces, which tests
  # (a tmpfs over a folder, a private /etc/hosts) make.
  mount --bind "$root" "$root"
  mount -t proc proc "$root/proc"
  mount -t sysfs -o ro sysfs "$root/sys"
  mount -t tmpfs -o mode=755 tmpfs "$root/dev"
  local node
  for node in null zero full random urandom tty; do touch "$root/dev/$node"; mount --bind "/dev/$node" "$root/dev/$node"; done
  mkdir -p "$root/dev/pts" "$root/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
  ln -sf pts/ptmx "$root/dev/ptmx"
  ln -sf /proc/self/fd "$root/dev/fd"
  ln -sf /proc/self/fd/0 "$root/dev/stdin"; ln -sf /proc/self/fd/1 "$root/dev/stdout"; ln -sf /proc/self/fd/2 "$root/dev/stderr"
  mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
  mkdir -p "$root$swift_dir" "$root$checkout"
  mount --bind "$swift_dir" "$root$swift_dir"
  mount -o remount,bind,ro "$root$swift_dir"
  mount --bind "$checkout" "$root$checkout"
  # The release's own build folder in place of the machine's: .build-<release> beside it.
  mkdir -p "$checkout/.build" "$checkout/.build-$release"
  mount --bind "$checkout/.build-$release" "$root$checkout/.build"
  cp /etc/resolv.conf /etc/hosts "$root/etc/" 2>/dev/null || true
  # Where the machine's git finds packages (a local mirror named by url.<path>.insteadOf), so
  # that SwiftPM inside resolves them as it does outside.
  [ -f /etc/gitconfig ] && cp /etc/gitconfig "$root/etc/gitconfig"
  [ -f "$HOME/.gitconfig" ] && cp "$HOME/.gitconfig" "$root/root/.gitconfig"
  local base
  while read -r base; do
    base=${base%/}
    [ -d "$base" ] || continue
    mkdir -p "$root$base"; mount --bind "$base" "$root$base"; mount -o remount,bind,ro "$root$base"
  done < <(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | sed -E 's/^url\.(.*)\.insteadof .*/\1/I' | grep '^/' | sort -u)
  mkdir -p "$root/.host"
  cd "$root"
  pivot_root . .host
  umount -l /.host
  exec /usr/bin/env -i \
    PATH="$swift_dir/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" DEBIAN_FRONTEND=noninteractive \
    /bin/bash -c 'cd "$1" && shift && exec "$@"' bash "$checkout" "$@"
}

case "$command" in
  make) make_root; echo "$root" ;;
  toolchain) toolchain ;;
  run) run_in_root "$@" ;;
  _inside) inside "$@" ;;
  *) usage ;;
esac
