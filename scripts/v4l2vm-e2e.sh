#!/usr/bin/env bash
# End to end on a real V4L2 driver (vivid) inside ../shared/v4l2vm (not part of `make test`:
# it boots a VM, ~15 s a run). Usage, from the checkout:
#   V4L2VM_EXTRA_PACKAGES="libexif12 libzxing2 libopencv-objdetect406 libopencv-imgproc406 libopencv-core406 libgstrtspserver-1.0-0 libimage-exiftool-perl" \
#     ../shared/v4l2vm/v4l2vm build   # once, as root (the guest needs libexif, zxing-cpp, OpenCV and exiftool)
#   swift build --build-tests && scripts/v4l2vm-e2e.sh
# Inside the guest (V4L2VM=1) it lists devices, snaps a 640x480 still from vivid and checks it.
set -euo pipefail
if [ "${V4L2VM:-}" != "1" ]; then
  exec "$(dirname "$0")/../../shared/v4l2vm/v4l2vm" run --timeout 240 -- "$0" "$@"
fi
capture=.build/debug/capture
out=$(mktemp -d)
start=$(date +%s.%N)
echo "== capture devices --json"
$capture devices --json | tee "$out/devices.json"
grep -q '"modelID"' "$out/devices.json"
grep -qi 'vivid' "$out/devices.json" || { echo "vivid not listed"; exit 1; }
echo "== capture snap -d 0 --preset vga640x480"
$capture snap -d 0 --preset vga640x480 -o "$out/vivid.jpg" --verbose
head -c 2 "$out/vivid.jpg" | od -An -tx1 | grep -q 'ff d8' || { echo "not a JPEG"; exit 1; }
if command -v gst-discoverer-1.0 >/dev/null; then gst-discoverer-1.0 "$out/vivid.jpg" | grep -i 'width\|height' || true; fi
ls -l "$out/vivid.jpg"
echo "== capture snap -d /dev/video0 --preset vga640x480 (the node opened alone, no device monitor)"
$capture snap -d /dev/video0 --preset vga640x480 -o "$out/vivid-path.jpg"
head -c 2 "$out/vivid-path.jpg" | od -An -tx1 | grep -q 'ff d8' || { echo "not a JPEG"; exit 1; }
grep -qa 'Exif' "$out/vivid-path.jpg" || { echo "no EXIF"; exit 1; }
ls -l "$out/vivid-path.jpg"
echo "== capture scan -d 0 --timeout 2 (the metadata branch on vivid's frames: no code in its pattern, exit 1)"
set +e; $capture scan -d 0 --timeout 2 --verbose 2>"$out/scan.err"; status=$?; set -e
grep -o 'appsink name=output0_sink' "$out/scan.err" | head -1
[ "$status" = 1 ] || { echo "capture scan exited $status"; cat "$out/scan.err"; exit 1; }
echo "== capture controls -d 0"
$capture controls -d 0 > "$out/controls.txt"
head -40 "$out/controls.txt"
grep -q '^brightness ' "$out/controls.txt" || { echo "no raw brightness control"; exit 1; }
grep -q '^iso .*device(gain_automatic=0, gain' "$out/controls.txt" || { echo "ISO not mapped onto gain"; exit 1; }
if [ -x .build/debug/CaptureKitPackageTests.xctest ]; then
  echo "== live V4L2 tests (brightness on the running pipeline; the software exposure loop on vivid's gain;"
  echo "   digital zoom in the pipeline; frame durations and a bracket; ioctl discovery matches v4l2-ctl; a camera given by path is described"
  echo "   alone as the device monitor describes it; then the disconnect control)"
  for filter in 'brightnessWhileRunning|softwareExposureLoop|pipelineZoom|liveDevice|probedByPath|V4L2LiveTests/controlReport|V4L2LiveTests/stillMetadata|frameDurationsOnVivid|bracketOnVivid|DeviceKindTests' 'DeviceConformanceTests' 'disconnectWhileRunning'; do
    # The guest has no Xvfb and no H.264 encoder: the conformance suite runs on the kinds it can make there.
    CAPTUREKIT_CONFORMANCE_KINDS=v4l2-live,virtual-back,virtual-front,microphone,v4l2:logitech-c920,file-image,file-sequence \
      timeout 120 .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing --filter "$filter" 2>&1 \
      | grep -E '✔|✘|recorded|software AE|digital zoom|probedByPath|↳ v4l2' | sed 's/\x1b\[[0-9;]*m//g' | tee -a "$out/live.txt"
  done
  if grep -q '✘' "$out/live.txt"; then echo "live tests failed"; exit 1; fi
fi
echo "== hot-plug: capture devices --watch while vivid is removed and loaded again"
$capture devices --watch 8 > "$out/watch.txt" &
watcher=$!
sleep 5
modprobe -r vivid
sleep 1.5
modprobe vivid n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0
wait $watcher
grep -E '^(dis)?connected' "$out/watch.txt"
grep -q '^disconnected: vivid' "$out/watch.txt" || { echo "no disconnect notification"; exit 1; }
grep -q '^connected: vivid' "$out/watch.txt" || { echo "no connect notification"; exit 1; }
end=$(date +%s.%N)
echo "v4l2vm e2e ok in $(awk "BEGIN { print $end - $start }") s (inside the guest)"
