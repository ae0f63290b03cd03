#!/usr/bin/env bash
# End to end on a real V4L2 driver (vivid) inside ../shared/v4l2vm (not part of `make test`:
# it boots a VM, ~15 s a run; the first run builds vimc for the guest's kernel, ~3 min). Usage, from the checkout:
#   swift build --build-tests && scripts/v4l2vm-e2e.sh
# As root it builds the guest image first when missing or when scripts/v4l2vm-packages.txt changed
# (~3 min); otherwise build it once with
#   sudo V4L2VM_EXTRA_PACKAGES="$(grep -v '^#' scripts/v4l2vm-packages.txt | xargs)" ../shared/v4l2vm/v4l2vm build
# Inside the guest (V4L2VM=1) it tests vivid through V4L2 and through a PipeWire daemon (two
# recorders at once), then vimc through libcamera.
set -euo pipefail
if [ "${V4L2VM:-}" != "1" ]; then
  here=$(cd "$(dirname "$0")" && pwd)
  if [ "$(id -u)" = 0 ]; then
    V4L2VM_EXTRA_PACKAGES="$(grep -v '^#' "$here/v4l2vm-packages.txt" | xargs)" "$here/../../shared/v4l2vm/v4l2vm" build >/dev/null
  fi
  "$here/vimc-module.sh" fetch
  exec "$(dirname "$0")/../../shared/v4l2vm/v4l2vm" run --timeout 600 -- "$0" "$@"
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
  for filter in 'brightnessWhileRunning|softwareExposureLoop|autoGainReadBack|pipelineZoom|liveDevice|probedByPath|V4L2LiveTests/controlReport|V4L2LiveTests/stillMetadata|frameDurationsOnVivid|bracketOnVivid|DeviceKindTests' 'DeviceConformanceTests' 'disconnectWhileRunning'; do
    # The guest has no Xvfb and no H.264 decoder: the conformance suite runs on the kinds it can make there.
    CAPTUREKIT_CONFORMANCE_KINDS=v4l2-live,virtual-back,virtual-front,microphone,v4l2:logitech-c920,file-image,file-sequence \
      timeout 120 .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing --filter "$filter" 2>&1 \
      | grep -E '✔|✘|recorded|software AE|auto gain read back|digital zoom|probedByPath|↳ v4l2' | sed 's/\x1b\[[0-9;]*m//g' | tee -a "$out/live.txt"
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
echo "== PipeWire: a daemon serves vivid; two capture processes record it at once, through PipeWire"
cat > "$out/pipewire-pair.sh" <<'PAIR'
#!/usr/bin/env bash
set -euo pipefail
capture=$1 out=$2
node=""
for _ in $(seq 1 40); do   # WirePlumber takes a few seconds to make vivid's node
  $capture devices --json 2>/dev/null | perl -MJSON::PP -e 'print "$_->{uniqueID}\t$_->{route}\n" for @{decode_json(join "", <STDIN>)->{devices}}' > "$out/pw-devices.txt"
  node=$(grep -E '^pipewire:v4l2_input[^	]*	pipewire$' "$out/pw-devices.txt" | cut -f1 | head -1)
  [ -n "$node" ] && break
  sleep 0.5
done
cat "$out/pw-devices.txt"
[ -n "$node" ] || { echo "vivid not listed through PipeWire"; exit 1; }
if grep -q '^/dev/video0	' "$out/pw-devices.txt"; then echo "vivid listed twice"; exit 1; fi
$capture record -d "$node" --preset vga640x480 --duration 3 -o "$out/pw-a.mp4" > "$out/pw-a.txt" 2>&1 &
a=$!
$capture record -d "$node" --preset vga640x480 --duration 3 -o "$out/pw-b.mp4" > "$out/pw-b.txt" 2>&1 &
b=$!
status=0
wait $a || status=$?
wait $b || status=$?
cat "$out/pw-a.txt" "$out/pw-b.txt"
[ "$status" = 0 ] || { echo "a recorder failed ($status)"; exit 1; }
for f in pw-a pw-b; do
  gst-discoverer-1.0 "$out/$f.mp4" > "$out/$f.info"
  grep -E 'Duration|H.264|Width' "$out/$f.info"
  grep -q 'H.264' "$out/$f.info" && grep -q 'Width: 640' "$out/$f.info" || { echo "$f.mp4 is not a 640x480 H.264 movie"; exit 1; }
  grep -q 'Duration: 0:00:0[23]' "$out/$f.info" || { echo "$f.mp4 is not 2-3 s long"; exit 1; }
  if grep -qi 'interrupt' "$out/$f.txt"; then echo "$f was interrupted"; exit 1; fi
  if grep -q 'CRITICAL' "$out/$f.txt"; then echo "$f logged criticals"; exit 1; fi
done
echo "both recordings whole, neither interrupted"
if [ -x .build/debug/CaptureKitPackageTests.xctest ]; then
  echo "== conformance suite on the PipeWire camera"
  CAPTUREKIT_CONFORMANCE_KINDS=pipewire-live timeout 300 .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing \
    --filter 'DeviceConformanceTests' 2>&1 | grep -E '✔|✘|recorded' | sed 's/\x1b\[[0-9;]*m//g' | tee "$out/pw-live.txt"
  if grep -q '✘' "$out/pw-live.txt" || ! grep -q '✔ Test' "$out/pw-live.txt"; then echo "PipeWire conformance failed"; exit 1; fi
fi
PAIR
chmod +x "$out/pipewire-pair.sh"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd   # the guest's minimal /dev has none; the session script's redirections need it
scripts/pipewire-session.sh -- "$out/pipewire-pair.sh" "$capture" "$out"
echo "== libcamera: vimc's Sensor B through libcamerasrc (vimc built for this kernel by scripts/vimc-module.sh)"
scripts/vimc-module.sh load
cam='libcamera:platform/vimc.0 Sensor B'
$capture devices --json 2>"$out/lc-devices.err" | perl -MJSON::PP -e 'print "$_->{uniqueID}\t$_->{route}\n" for @{decode_json(join "", <STDIN>)->{devices}}' \
  | tee "$out/lc-devices.txt"
grep -qxF "$cam	libcamera" "$out/lc-devices.txt" || { echo "vimc not listed through libcamera"; exit 1; }
if grep -q CRITICAL "$out/lc-devices.err"; then echo "criticals while listing:"; cat "$out/lc-devices.err"; exit 1; fi
if grep -qE '^/dev/video[1-3]	' "$out/lc-devices.txt"; then echo "a raw vimc node was listed as a camera"; exit 1; fi
echo "== what libcamera's cam says the camera supports (LibcameraCameraFacts), and the name it gives"
LIBCAMERA_LOG_LEVELS='*:ERROR' cam -c "${cam#libcamera:}" --list-controls --list-properties | tee "$out/lc-cam.txt"
model=$(sed -n 's/^Property: Model = "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$out/lc-cam.txt")
named=$($capture devices --json 2>/dev/null | perl -MJSON::PP -e 'print "$_->{name}\n" for grep { $_->{uniqueID} eq $ARGV[0] } @{decode_json(join "", <STDIN>)->{devices}}' "$cam")
[ -n "$model" ] && [ "$named" = "$model" ] || { echo "named '$named', cam's Model is '$model'"; exit 1; }
echo "named '$named' after cam's Model"
echo "== capture snap -d '$cam' --preset vga640x480"
$capture snap -d "$cam" --preset vga640x480 -o "$out/lc.jpg"
exiftool -s3 -ImageWidth -ImageHeight -Model "$out/lc.jpg" | tee "$out/lc-exif.txt"
[ "$(head -2 "$out/lc-exif.txt" | xargs)" = "640 480" ] || { echo "not a 640x480 still"; exit 1; }
echo "== capture record -d '$cam' --duration 2"
$capture record -d "$cam" --preset vga640x480 --duration 2 -o "$out/lc.mp4"
gst-discoverer-1.0 "$out/lc.mp4" | tee "$out/lc-movie.txt" | grep -E 'video|Width|Height|Duration'
grep -q 'H.264' "$out/lc-movie.txt" && grep -q 'Width: 640' "$out/lc-movie.txt" || { echo "not a 640x480 H.264 movie"; exit 1; }
echo "== capture stream -d '$cam' rtsp://127.0.0.1:8556/cam, read back by rtspsrc"
$capture stream -d "$cam" --preset vga640x480 --duration 40 rtsp://127.0.0.1:8556/cam > "$out/lc-stream.txt" 2>&1 &
streamer=$!
received=0
for _ in $(seq 1 20); do
  if timeout 30 gst-launch-1.0 -q rtspsrc location=rtsp://127.0.0.1:8556/cam ! rtph264depay ! h264parse ! identity eos-after=10 ! fakesink 2>/dev/null; then
    received=1; break
  fi
  sleep 1
done
kill -INT $streamer 2>/dev/null || true; wait $streamer || true
[ "$received" = 1 ] || { echo "no RTSP frames from the libcamera camera"; cat "$out/lc-stream.txt"; exit 1; }
echo "rtspsrc received 10 H.264 frames"
if [ -x .build/debug/CaptureKitPackageTests.xctest ]; then
  echo "== conformance suite on libcamera"
  CAPTUREKIT_CONFORMANCE_KINDS=libcamera-live timeout 300 .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing \
    --filter 'DeviceConformanceTests' 2>&1 | grep -E '✔|✘|recorded' | sed 's/\x1b\[[0-9;]*m//g' | tee "$out/lc-live.txt"
  if grep -q '✘' "$out/lc-live.txt" || ! grep -q '✔ Test' "$out/lc-live.txt"; then echo "libcamera conformance failed"; exit 1; fi
fi
end=$(date +%s.%N)
echo "v4l2vm e2e ok in $(awk "BEGIN { print $end - $start }") s (inside the guest)"
