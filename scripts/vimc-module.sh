#!/usr/bin/env bash
# The vimc virtual media-controller camera for the v4l2vm guest: Debian's kernel does not build it
# (CONFIG_VIDEO_VIMC is not set), but libcamera's vimc pipeline handler drives it, so it is how a
# libcamera camera is tested with no hardware.
#   scripts/vimc-module.sh fetch   on the host: the vimc sources of Debian's linux-source-6.1 into .build/vimc/src
#   scripts/vimc-module.sh load    in the guest (V4L2VM=1): build vimc.ko for the running kernel once
#                                  (cached in .build/vimc/<kernel>/), then load it
# The guest image has the kernel headers and gcc that v4l2loopback-dkms needed.
set -euo pipefail
cd "$(dirname "$0")/.."
src=.build/vimc/src
case "${1:-}" in
fetch)
  [ -f "$src/vimc-core.c" ] && exit 0
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download linux-source-6.1 >/dev/null 2>&1)
  mkdir -p "$src"
  dpkg-deb --fsys-tarfile "$work"/linux-source-6.1_*.deb | tar -x -O ./usr/src/linux-source-6.1.tar.xz \
    | tar -xJ -C "$work" --wildcards 'linux-source-6.1/drivers/media/test-drivers/vimc/*'
  cp "$work"/linux-source-6.1/drivers/media/test-drivers/vimc/* "$src/"
  echo "vimc sources in $src"
  ;;
load)
  [ "${V4L2VM:-}" = 1 ] || { echo "vimc-module.sh load runs inside the v4l2vm guest" >&2; exit 2; }
  [ -f "$src/vimc-core.c" ] || { echo "no vimc sources: run scripts/vimc-module.sh fetch on the host first" >&2; exit 2; }
  kver=$(uname -r)
  module=.build/vimc/$kver/vimc.ko
  if [ ! -f "$module" ]; then
    build=$(mktemp -d)
    cp "$src"/* "$build/"
    make -s -C "/lib/modules/$kver/build" M="$build" CONFIG_VIDEO_VIMC=m modules >&2
    mkdir -p "$(dirname "$module")"
    cp "$build/vimc.ko" "$module"
    rm -rf "$build"
  fi
  modprobe -a v4l2-tpg videobuf2-vmalloc videobuf2-v4l2 v4l2-async 2>/dev/null || modprobe -a v4l2-tpg videobuf2-vmalloc
  insmod "$module"
  udevadm settle 2>/dev/null || true
  ;;
*)
  echo "usage: $0 fetch|load" >&2; exit 2 ;;
esac
