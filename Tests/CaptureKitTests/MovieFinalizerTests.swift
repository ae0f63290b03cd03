import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

@Suite("Movie finalizer")
struct MovieFinalizerTests {
    /// A recording's fragments, as mp4mux writes them while recording: 2 s of H.264 from 0 and
    /// AAC from `audioOffset` nanoseconds, in 1 s fragments.
    static func fragmentedMovie(at url: URL, audioOffset: Int) throws {
        let encoder = GStreamer.hasElement("avenc_aac") ? "avenc_aac" : "voaacenc"
        let line = "mp4mux name=m fragment-duration=1000 fragment-mode=dash-or-mss ! filesink location=\(url.path) "
            + "videotestsrc num-buffers=60 ! video/x-raw,width=320,height=240,framerate=30/1 "
            + "! x264enc key-int-max=30 tune=zerolatency speed-preset=ultrafast ! h264parse ! m.video_0 "
            + "audiotestsrc num-buffers=200 samplesperbuffer=480 timestamp-offset=\(audioOffset) "
            + "! audio/x-raw,rate=48000,channels=2 ! \(encoder) ! aacparse ! m.audio_0"
        _ = try run("/usr/bin/gst-launch-1.0", ["-q"] + line.split(separator: " ").map(String.init))
    }

    @Test("a movie whose video starts before its audio keeps every frame when finished (qtdemux's segment starts at the audio)",
          arguments: [20_833, 0])
    func videoBeforeAudio(audioOffset: Int) throws {
        let url = try temporaryDirectory().appendingPathComponent("fragments.mp4")
        try Self.fragmentedMovie(at: url, audioOffset: audioOffset)
        let fragmented = try MovieProbe(url.path)
        try #require(fragmented.video?.frames == 60 && fragmented.video?.startTime == 0, "\(fragmented.streams)")
        #expect(MovieFinalizer.finalize(url, container: .mp4, matrix: nil))
        let finished = try MovieProbe(url.path)
        #expect(finished.video?.frames == 60, "\(finished.streams)")
        // The video still starts at 0; the audio within a sample of where it started (mp4mux starts each track at its
        // first sample).
        let audioShift = abs((finished.audio?.startTime ?? -1) - (fragmented.audio?.startTime ?? 0))
        #expect(finished.video?.startTime == 0 && audioShift <= 1.0 / 48000 + 1e-6, "\(finished.streams)")
        let boxes = try MovieProbe.topLevelBoxes(url.path)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
    }
}
