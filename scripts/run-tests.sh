#!/usr/bin/env bash
# `make test`'s test phase: the built test bundle run as four processes at once, each running
# up to $CAPTUREKIT_TEST_WIDTH (2) tests at a time (most of ours wait on real time: frames,
# recordings, servers, subprocesses; unbounded, Swift Testing starts every async test at once
# and a 2-core machine drowns), then, one test at a time, the suites that judge real time, and
# last the tests that need the process or the machine to themselves. Each other test has
# devices of its own (a CaptureContext); suites that share something else say what and run one
# test at a time.
# Prints each process's log as it ends; fails when any failed.
set -uo pipefail
SWIFT=${SWIFT:-swift}
bundle="$($SWIFT build --show-bin-path)/CaptureKitPackageTests.xctest"
logs=$(mktemp -d /tmp/capturekit-tests.XXXXXX)
trap 'rm -rf "$logs"' EXIT
# Tests that need the process, or the machine, to themselves: they run last, when every other
# test is over. The whole process's memory, descriptors and threads by name (which any other
# test moves), its $DISPLAY (the screen device's tests set it), the portal's answer (kept for
# the process, as AVFoundation keeps an app's), and two requests 5 ms apart handled in the order
# sent (a server that is busy at all may take them in either order; it failed beside the
# niced build below).
quiet='MemoryTests|HostileInputTests/connectionLimit|ScreenDeviceTests|CameraPortalTests'
quiet+='|StreamingThreadTests/encoderWorkers|HostileInputTests/racingRecordCommands'
# Suites that judge real time (frames counted against seconds, durations to a frame, rates,
# settling times, a browser's picture changing, the runtime's longest step): they need the
# processor when their frames are due, which tests beside them take. These are the suites that
# failed in five runs of the rest side by side.
real_time='MovieFileOutputTests|MovieRecordingBehaviourTests|StreamOutputTests/|CompressedVideoDataOutputTests'
real_time+='|FileCameraTests|ZoomTests|FormatSwitchTests|VirtualCameraTests|MetadataOutputTests|RuntimeChurnTests'
real_time+='|PortedServiceTests|PauseRecordingTests|AutoModesTests|StreamOutputWHEPTests|StreamOutputRTSPTests'
real_time+='|RecordCommandTests|ServeCommandTests|BrowserTests|WHEPTests'
# A one-second recording whose frames are counted (29 of 30 at least): it got 28 beside the
# other shards in Debian 13's run.
real_time+='|MovieFinalizerTests/stopFinalizing'
# Two `capture record` processes on one PipeWire camera, each file counted (55 of 60 frames) and
# addressed by index (`-d 0`): beside the photo corpus in Debian 13's run the test took 126 s for
# two seconds of recording, and `-d 0`'s file (60 frames, 2.0 s) was not 640 wide: most likely
# another camera, the PipeWire one not yet listed.
real_time+='|PipeWireCommandTests/sharedByTwoRecorders'
# README's command lines run `capture run pipelines/stream-srt.yaml`, which listens on the fixed
# port 9710 that the pipeline examples' own run of that file (another process) also takes.
real_time+='|ReadmeCommandTests'
# Segments are counted to the frame (a frame a leaky queue drops under load is one fewer), and the
# kill -9 test measures what survives by the clock.
real_time+='|SegmentedMovieFileOutputTests|SegmentedRecordCommandTests|SegmentRetentionCommandTests|EventClipTests|EventRecordCommandTests'
# The archive's export and the webhook's signal need the recording going when the test expects
# it; a file camera plays its clip by the clock, and a pipeline file's 2 s run recorded 2.23 s
# beside the detectors' corpus (Debian 12 CI, 147 s for a 2 s test).
real_time+='|SegmentArchiveTests|EventWebhookCommandTests|FileCameraCommandTests'
alone="$quiet|$real_time"
# Each process's tests, and how many run at once. The package that depends on CaptureKit by
# version builds it from nothing (two cores for minutes): it starts first, in a process of its
# own at the lowest priority, and goes on beside the tests that run alone, which it yields to.
# (The detectors' photo corpus, which keeps every core busy, did not leave them alone enough
# there: two auto-mode tests failed beside it.) The camera server's tests run one at a time in
# a process of their own: its handlers run on Swift's cooperative threads (one per core), which
# the tests' blocking reads and synchronous tests beside them would otherwise all hold.
downstream='DownstreamPackageTests'
width=${CAPTUREKIT_TEST_WIDTH:-2}
shards=(
  "$downstream"
  'CaptureCommandTests\.|DetectorsTests\.'
  'CaptureKitTests\.|PortsTests\.|GStreamerSwiftTests\.|CaptureFilesTests\.'
  'CaptureServerTests\.'
)
widths=(1 "$width" "$width" 1)
skips=("$alone" "$alone|$downstream" "$alone" "$alone")
started=$SECONDS
pids=()
for i in "${!shards[@]}"; do
  priority=0; [ "$i" -eq 0 ] && priority=19
  nice -n "$priority" "$bundle" --testing-library swift-testing --experimental-maximum-parallelization-width "${widths[$i]}" \
    --filter "${shards[$i]}" --skip "${skips[$i]}" >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
status=0
finish() {
  wait "${pids[$1]}" || { status=1; echo "run-tests: the tests matching '${shards[$1]}' failed" >>"$logs/$1.log"; }
  cat "$logs/$1.log"
}
for i in 1 2 3; do finish "$i"; done
alone_started=$SECONDS
"$bundle" --testing-library swift-testing --no-parallel --filter "$real_time" || status=1
alone_took=$((SECONDS - alone_started))
finish 0
"$bundle" --testing-library swift-testing --no-parallel --filter "$quiet" || status=1
echo "run-tests: test phase $((SECONDS - started)) s (alone: ${alone_took} s), status $status" >&2
exit $status
