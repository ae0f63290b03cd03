#!/usr/bin/env bash
# `capture-bench snap-v4l2` on a real V4L2 driver (vivid) inside ../shared/v4l2vm: whole-process time
# to one 640x480 JPEG from /dev/video0 for `capture snap` against gst-launch-1.0, fswebcam and ffmpeg,
# median of 7 interleaved rounds (see BENCHMARKS.md). Usage, from the checkout:
#   swift build -c release --static-swift-stdlib --product capture
#   swift build -c release --static-swift-stdlib --product capture-bench
#   scripts/v4l2vm-bench.sh [NAME=CAPTURE-BINARY ...]     # e.g. before=.build/before/capture
# The peers fswebcam and ffmpeg live in a guest image of their own, in V4L2VM_CACHE (default
# /var/cache/v4l2vm-bench), so that it does not replace the image the e2e script shares: the same
# packages as scripts/v4l2vm-e2e.sh plus fswebcam, ffmpeg and linux-perf (`perf record -e cpu-clock`
# works in the TCG guest, for finding where a process's time goes). Built on first use (root, ~12 min).
# Peers missing from the guest are reported absent; with V4L2VM_CACHE pointing at the shared
# image, the run compares against gst-launch-1.0 alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
v4l2vm="$here/../../shared/v4l2vm/v4l2vm"
export V4L2VM_CACHE=${V4L2VM_CACHE:-/var/cache/v4l2vm-bench}
if [ "$V4L2VM_CACHE" = /var/cache/v4l2vm-bench ] && [ "$(id -u)" = 0 ]; then   # build needs root; skips when complete
  V4L2VM_EXTRA_PACKAGES="libexif12 libzxing2 libopencv-objdetect406 libopencv-imgproc406 libopencv-core406 libgstrtspserver-1.0-0 fswebcam ffmpeg linux-perf" \
    "$v4l2vm" build
fi
exec "$v4l2vm" run --timeout 900 -- .build/release/capture-bench snap-v4l2 "$@"
