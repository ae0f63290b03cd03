#!/usr/bin/env bash
# Runs COMMAND beside a PipeWire daemon of its own, with one test camera node:
#   scripts/pipewire-session.sh [--node NAME] -- COMMAND...
# A private XDG_RUNTIME_DIR and D-Bus session bus; pipewire, wireplumber and a
# `gst-launch-1.0 videotestsrc ! pipewiresink mode=provide` node (640x480 YUY2 at 30 fps,
# media.class Video/Source) that the device provider lists as a camera. Everything it started
# is stopped when COMMAND ends; COMMAND's exit status is the script's. Used by the tests (make
# test installs pipewire, wireplumber and gstreamer1.0-pipewire: scripts/apt-packages.txt).
set -euo pipefail
node=capturekit-test-camera
while [ $# -gt 0 ]; do
  case $1 in
    --node) node=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--node NAME] -- COMMAND..." >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--node NAME] -- COMMAND..." >&2; exit 2; }
for tool in pipewire wireplumber dbus-run-session gst-launch-1.0; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is not installed (make deps installs it)" >&2; exit 3; }
done
# A parent may leave signals blocked or ignored (a test runner's threads block TERM), and both
# are inherited: the daemons would then outlive their session and hold the caller's pipes open.
# Start again with every signal unblocked and at its default.
if [ "${CAPTUREKIT_PIPEWIRE_SIGNALS:-}" != 1 ]; then
  CAPTUREKIT_PIPEWIRE_SIGNALS=1 exec perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new); $SIG{$_} = "DEFAULT" for keys %SIG; exec @ARGV or die "exec: $!"' -- "$0" --node "$node" -- "$@"
fi
if [ "${CAPTUREKIT_PIPEWIRE_INNER:-}" != 1 ]; then
  runtime=$(mktemp -d)
  chmod 700 "$runtime"
  trap 'rm -rf "$runtime"' EXIT
  set +e
  XDG_RUNTIME_DIR=$runtime CAPTUREKIT_PIPEWIRE_INNER=1 dbus-run-session -- "$0" --node "$node" -- "$@" 2> >(grep -v 'Failed to set fd limit' >&2)
  status=$?
  exit $status
fi
logs=$XDG_RUNTIME_DIR
pipewire > "$logs/pipewire.log" 2>&1 &
pids=($!)
# KILL, not TERM: a parent may have left TERM blocked (a test runner's threads do), and the
# blocked mask is inherited; these processes and their runtime folder are thrown away anyway.
trap 'kill -KILL "${pids[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break; sleep 0.1; done
wireplumber > "$logs/wireplumber.log" 2>&1 &
pids+=($!)
gst-launch-1.0 -q videotestsrc is-live=true pattern=ball ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 \
  ! pipewiresink mode=provide "stream-properties=props,media.class=Video/Source,node.name=$node,node.description=CaptureKit-Test-Camera" \
  > "$logs/node.log" 2>&1 &
pids+=($!)
# The node is there once pw-cli lists it.
for _ in $(seq 50); do pw-cli ls Node 2>/dev/null | grep -q "node.name = \"$node\"" && break; sleep 0.1; done
set +e
"$@"
