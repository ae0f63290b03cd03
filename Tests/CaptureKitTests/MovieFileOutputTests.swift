import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// Recordings judged by ffprobe: containers, codecs, sizes, durations and frame counts, the two
/// tracks' alignment, and the delegate's order.
@Suite("Movie file output", .ownDevices, .serialized)
struct MovieFileOutputTests {
    /// A 640x480 virtual camera (or `device` at `preset`) and the virtual microphone, with a movie output and a video data output.
    static func session(audio: Bool = true, device: CaptureDevice = .find(virtual: .back), preset: SessionPreset = .vga640x480,
                        outputs: [any CaptureOutput]) throws -> TestSession {
        let test = try TestSession(preset: preset, device: device, outputs: [])
        if audio {
            let mic = CaptureDevice.virtualMicrophone
            try test.session.checked.addInput(CaptureDeviceInput(device: mic))
        }
        for output in outputs { try test.session.checked.addOutput(output) }
        return test
    }

    /// Records for `seconds` to a new file with `ext` (from `device` at `preset`, the virtual
    /// camera at 640x480 unless told), and returns the file, the delegate and the output.
    static func record(_ ext: String, seconds: Double, audio: Bool = true,
                       device: CaptureDevice = .find(virtual: .back), preset: SessionPreset = .vga640x480,
                       configure: (MovieFileOutput) -> Void = { _ in },
                       connection: (CaptureConnection) -> Void = { _ in }) async throws -> (URL, RecordingEvents, MovieFileOutput) {
        let movie = MovieFileOutput()
        configure(movie)
        let test = try session(audio: audio, device: device, preset: preset, outputs: [movie])
        connection(try #require(movie.connection(with: .video)))
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("clip.\(ext)")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(movie.isRecording)
        #expect(movie.outputFileURL == url)
        try await Task.sleep(for: .seconds(seconds))
        movie.stopRecording()
        let error = await events.finished(within: 10)
        #expect(error == .some(nil), "did-finish: \(String(describing: error))")
        #expect(!movie.isRecording)
        return (url, events, movie)
    }

    @Test("mp4, mov and mkv: H.264 with AAC or Opus at the camera's size, duration and frame count as recorded", arguments: ["mp4", "mov", "mkv"])
    func containers(ext: String) async throws {
        let (url, events, movie) = try await Self.record(ext, seconds: 2)
        #expect(events.all == [.started(url), .finished(url, nil)])
        let probe = try MovieProbe(url.path)
        let video = try #require(probe.video, "\(probe)")
        let audio = try #require(probe.audio, "\(probe)")
        #expect(video.codec == "h264")
        #expect(audio.codec == (ext == "mkv" ? "opus" : "aac"))
        #expect(video.width == 640 && video.height == 480)
        let recorded = movie.recordedDuration.seconds
        #expect(recorded > 1.5 && recorded < 2.6, "recorded \(recorded) s")
        let videoDuration = Double(video.frames) / 30
        #expect(abs(videoDuration - recorded) <= 1.0 / 30 + 1e-6, "\(video.frames) frames for \(recorded) s recorded")
        #expect(abs(probe.duration - recorded) <= 0.1, "file \(probe.duration) s, recorded \(recorded) s")
        #expect(movie.droppedFrameCount == 0)
        if ext != "mkv" {
            // Fragments while recording, one index once finished: plays everywhere.
            let boxes = try MovieProbe.topLevelBoxes(url.path)
            #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        }
        #expect(movie.recordedFileSize == probe.size)
        // Audio starts with the video, within one AAC/Opus frame.
        #expect(abs(audio.startTime - video.startTime) <= 1024.0 / 44100 + 1e-3, "video starts at \(video.startTime), audio at \(audio.startTime)")
    }

    @Test("while recording, pipelineDescription is a gst-launch-1.0 line that records both tracks too")
    func launchLine() async throws {
        let movie = MovieFileOutput()
        let test = try Self.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        let events = RecordingEvents()
        movie.startRecording(to: directory.appendingPathComponent("live.mp4"), recordingDelegate: events)
        let line = test.session.pipelineDescription
        movie.stopRecording()
        _ = await events.finished(within: 10)
        // The same line, its sources made finite (1.5 s each) and writing elsewhere.
        let copy = directory.appendingPathComponent("launch.mp4")
        let words = line.split(separator: " ").map { word -> String in
            if word.hasPrefix("location=") { return "location=\(copy.path)" }
            if word == "name=input0_src" { return "name=input0_src num-buffers=45" }
            if word == "name=input1_src" { return "name=input1_src num-buffers=150" }
            return String(word)
        }
        let output = try run("/usr/bin/gst-launch-1.0", words.flatMap { $0.split(separator: " ").map(String.init) })
        let probe = try MovieProbe(copy.path)
        #expect(probe.video?.codec == "h264" && probe.audio?.codec == "aac", "\(line)\n\(output)")
    }

    @Test("a file sink that stalls 2.5 s makes the one-second queue leak: the frames it dropped are counted, the frames waiting are not")
    func stalledSinkDrops() async throws {
        let movie = MovieFileOutput()
        let test = try Self.session(audio: false, outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let events = RecordingEvents()
        movie.startRecording(to: try temporaryDirectory().appendingPathComponent("stall.mp4"), recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.3 }, "recording")
        #expect(movie.droppedFrameCount == 0)
        let name = try #require(test.session.pipelineDescription.firstMatch(of: /name=(output\d+_sink)/)?.1)
        let pad = try test.session.runtime!.pipeline.element(named: String(name)).staticPad("sink")
        let stalled = Atomic<Int>(0)
        pad.addBufferProbe { _ in
            // The file sink's thread (the muxer's, fed by the queue) stops once for 2.5 s.
            if stalled.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged {
                usleep(2_500_000)
                stalled.store(2, ordering: .relaxed)
            }
            return .pass
        }
        #expect(await waitFor(within: 5) { stalled.load(ordering: .relaxed) >= 1 }, "the sink's thread stalls")
        try await Task.sleep(for: .seconds(0.3))
        #expect(movie.droppedFrameCount == 0, "frames waiting behind the stall are not dropped (yet)")
        #expect(await waitFor(within: 10) { stalled.load(ordering: .relaxed) >= 2 }, "the stall ends")
        try await Task.sleep(for: .seconds(0.5))
        let during = movie.droppedFrameCount
        let url = try #require(movie.outputFileURL)
        movie.stopRecording()
        #expect(await events.finished(within: 10) == .some(nil))
        let dropped = movie.droppedFrameCount
        #expect(dropped >= 10 && dropped <= during + 1, "\(during) dropped while recording, \(dropped) in all, \(movie.recordedDuration.seconds) s")
        let video = try #require(try MovieProbe(url.path).video)
        let expected = movie.recordedDuration.seconds * 30
        #expect(abs(Double(video.frames + dropped) - expected) <= 2, "\(video.frames) frames and \(dropped) dropped for \(expected) frames' time")
    }
}
