import Foundation
import GStreamerSwift
import Synchronization
import Testing
@testable import CaptureKit

@Suite("Movie finalizer", .ownDevices)
struct MovieFinalizerTests {
    /// A recording's fragments, as mp4mux writes them while recording: `seconds` of H.264 from 0
    /// (a key frame a second) and `audioSeconds` (as many unless told) of AAC from `audioOffset`
    /// nanoseconds, in fragments of `fragment` milliseconds (video's cut at each key frame).
    static func fragmentedMovie(at url: URL, audioOffset: Int, seconds: Int = 2, audioSeconds: Int? = nil, fragment: Int = 1000) throws {
        let encoder = GStreamer.hasElement("avenc_aac") ? "avenc_aac" : "voaacenc"
        let line = "mp4mux name=m fragment-duration=\(fragment) fragment-mode=dash-or-mss ! filesink location=\(url.path) "
            + "videotestsrc num-buffers=\(seconds * 30) ! video/x-raw,width=320,height=240,framerate=30/1 "
            + "! x264enc key-int-max=30 tune=zerolatency speed-preset=ultrafast ! h264parse ! m.video_0 "
            + "audiotestsrc num-buffers=\((audioSeconds ?? seconds) * 100) samplesperbuffer=480 timestamp-offset=\(audioOffset) "
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
        #expect(MovieFinalizer.finalize(url, container: .mp4, matrix: nil) == nil)
        let finished = try MovieProbe(url.path)
        #expect(finished.video?.frames == 60, "\(finished.streams)")
        // The video still starts at 0; the audio within a sample of where it started (mp4mux starts each track at its
        // first sample).
        let audioShift = abs((finished.audio?.startTime ?? -1) - (fragmented.audio?.startTime ?? 0))
        #expect(finished.video?.startTime == 0 && audioShift <= 1.0 / 48000 + 1e-6, "\(finished.streams)")
        let boxes = try MovieProbe.topLevelBoxes(url.path)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
    }

    /// The track (`tfhd`'s track ID) of each `moof` of the file at `url`, in file order.
    static func fragmentTracks(_ url: URL) throws -> [Int] {
        let data = try Data(contentsOf: url)
        func integer(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        var tracks: [Int] = [], offset = 0
        while offset + 8 <= data.count {
            let size = integer(offset)
            if data[offset + 4..<offset + 8].elementsEqual("moof".utf8) {
                // moof: mfhd (16 bytes), then traf: its header, then tfhd: header, flags, track ID.
                tracks.append(integer(offset + 8 + 16 + 8 + 12))
            }
            guard size >= 8 else { break }
            offset += size
        }
        return tracks
    }

    /// Runs the finalizer off the test's thread; nil when it has not returned in `seconds` (the
    /// finalizer is then left to its own limits).
    static func finalize(_ url: URL, within seconds: Double, isCancelled: @escaping @Sendable () -> Bool = { false })
        -> MovieFinalizer.Failure?? {
        let result = Mutex<MovieFinalizer.Failure??>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let failure = MovieFinalizer.finalize(url, container: .mp4, matrix: nil, isCancelled: isCancelled)
            result.withLock { $0 = .some(failure) }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    @Test("a movie whose audio lies seconds after its video in the file is finished at once: one index, both tracks whole")
    func tracksSecondsApart() throws {
        let url = try temporaryDirectory().appendingPathComponent("apart.mp4")
        // 3 s of video and 5 s of audio in 3 s fragments: the first audio fragment follows all
        // three seconds of video (as a recording stopped by SIGSTOP and resumed puts its audio
        // seconds after its video: `capture record --duration 6` stopped 3 s wrote V V A).
        try Self.fragmentedMovie(at: url, audioOffset: 0, seconds: 3, audioSeconds: 5, fragment: 3000)
        let tracks = try Self.fragmentTracks(url)
        try #require(tracks.prefix { $0 == 1 }.count == 3 && tracks.contains(2), "fragments by track, in file order: \(tracks)")
        // Before the mend GStreamer's one-second queues deadlocked here until the finalizer's 120 s deadline.
        let outcome = Self.finalize(url, within: 60)
        #expect(outcome == .some(nil), "\(String(describing: outcome))")
        let boxes = try MovieProbe.topLevelBoxes(url.path)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        let finished = try MovieProbe(url.path)
        #expect(finished.video?.frames == 90, "\(finished.streams)")
        #expect(abs((finished.video?.duration ?? 0) - 3) <= 1.0 / 30 + 1e-3, "\(finished.streams)")
        #expect(abs((finished.audio?.duration ?? 0) - 5) <= 0.05, "\(finished.streams)")
    }

    @Test("a finalizer stopped midway leaves the fragmented file as it was, and while it writes, the folder shows no other file")
    func interrupted() throws {
        let directory = try temporaryDirectory()
        let url = directory.appendingPathComponent("stopped.mp4")
        try Self.fragmentedMovie(at: url, audioOffset: 0, seconds: 3)
        let original = try Data(contentsOf: url)
        // Asked first before the pipeline starts, then at each poll while it writes: the second
        // time, the folder is what a kill would leave.
        let asked = Mutex(0)
        let seen = Mutex<[String]>([])
        let outcome = Self.finalize(url, within: 60) {
            let count = asked.withLock { $0 += 1; return $0 }
            if count == 2 { seen.withLock { $0 = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? ["unreadable"] } }
            return count >= 2
        }
        #expect(outcome == .some(.interrupted), "\(String(describing: outcome))")
        #expect(seen.withLock { $0 } == ["stopped.mp4"])
        #expect(try Data(contentsOf: url) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["stopped.mp4"])
    }

    @Test("a file the finalizer cannot read is a failure that says GStreamer's words; the file is left alone")
    func unreadable() throws {
        let directory = try temporaryDirectory()
        let url = directory.appendingPathComponent("garbage.mp4")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: url)
        let outcome = try #require(Self.finalize(url, within: 60))
        guard case .failed(let reason)? = outcome else {
            Issue.record("expected a failure, got \(String(describing: outcome))")
            return
        }
        #expect(reason.contains("demux"), "\(reason)")
        #expect(try Data(contentsOf: url) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["garbage.mp4"])
    }

    @Test("stopFinalizing() once a limit stopped the recording: did-finish says the file stays fragmented, keeps the limit, and the file plays")
    func stopFinalizing() async throws {
        let movie = MovieFileOutput()
        movie.maxRecordedDuration = CaptureTime(seconds: 1, preferredTimescale: 600)
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("kept.mp4")
        let events = RecordingEvents()
        // Recordings are finalized one at a time on this queue: held, the recording waits for its index.
        let gate = DispatchSemaphore(value: 0)
        MovieFileOutput.finalizing.async { gate.wait() }
        defer { gate.signal() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(try await events.started(within: 10))
        #expect(!movie.isFinalizing)
        let deadline = Date().addingTimeInterval(20)
        while !movie.isFinalizing && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(movie.isFinalizing)
        movie.stopFinalizing()
        gate.signal()
        let error = try await events.finishError(within: 30)
        #expect(error.code == .movieNotFinalized && error.recordingSuccessfullyFinished, "\(error)")
        #expect(error.message == "'\(url.path)' stays fragmented: writing its single index was interrupted; it plays as it is")
        #expect((error.underlyingError as? CaptureError)?.code == .maximumDurationReached, "\(String(describing: error.underlyingError))")
        #expect(!movie.isFinalizing && !movie.isRecording)
        #expect(try MovieProbe.topLevelBoxes(url.path).contains("moof"))
        let probe = try MovieProbe(url.path)
        #expect((probe.video?.frames ?? 0) >= 29 && probe.audio != nil, "\(probe.streams)")
    }
}
