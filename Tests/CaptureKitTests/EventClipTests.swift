import Foundation
import Testing
@testable import CaptureKit

/// Event clips: the pre-roll before a trigger, the post-roll after the last, overlapping
/// triggers merged, judged by ffprobe's times; and events marked in the index with segments,
/// whose segments retention then keeps.
@Suite("Event clips", .ownDevices, .serialized)
struct EventClipTests {
    /// The first video time and the frames ffprobe reads in `url`.
    static func video(_ url: URL) throws -> (start: Double, frames: Int) {
        let probe = try MovieProbe(url.path)
        let video = try #require(probe.video, "\(probe)")
        return (video.startTime, video.frames)
    }

    @Test("clips only: a trigger's clip holds 2 s before it from a key frame and 1 s after the last of two merged triggers")
    func clip() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("porch", isDirectory: true)
        let output = SegmentedMovieFileOutput()
        output.recordsSegments = false
        try output.setEventRecording(EventRecording(preRoll: 2, postRoll: 1))
        output.movieFragmentInterval = CaptureTime(value: 1, timescale: 2)
        let test = try MovieFileOutputTests.session(audio: true, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let events = SegmentEvents()
        try output.startRecording(to: folder, delegate: events)
        try await Task.sleep(for: .seconds(3.5))
        let first = try #require(output.triggerEvent("door"), "no event: the recording has frames by now")
        try await Task.sleep(for: .seconds(0.5))
        let second = try #require(output.triggerEvent("code"))
        #expect(second.firstTrigger == first.firstTrigger && second.kinds.suffix(2) == ["door", "code"], "\(second)")
        try await Task.sleep(for: .seconds(2.5))
        output.stopRecording()
        let ending = try await events.recordingFinished(within: 10)
        #expect(ending == .some(nil))
        let event = try #require(events.events.last, "\(events.all)")
        let clip = try #require(event.clip)
        // The pre-roll: from the key frame at or before 2 s before the trigger (key frames every 2 s).
        #expect(event.start <= event.firstTrigger - 2 + 0.05 && event.start >= event.firstTrigger - 4.1, "\(event)")
        // The post-roll: at least 1 s after the last trigger.
        let end = try #require(event.end)
        #expect(end >= event.lastTrigger + 1 - 0.05, "\(event)")
        let (start, frames) = try Self.video(clip)
        #expect(abs(start - event.start) < 0.002, "ffprobe starts the clip at \(start), the event at \(event.start)")
        #expect(abs(Double(frames) / 30 - (end - event.start)) <= 1.0 / 30 + 1e-6, "\(frames) frames for \(end - event.start) s")
        #expect(try MovieProbe.topLevelBoxes(clip.path).first == "ftyp")
        // No segments: clips only, listed in the index with their triggers.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(names) == ["clips", "index.json"], "\(names)")
        let index = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: folder.appendingPathComponent("index.json")))
        #expect(index.segments.isEmpty && index.events.count >= 1)
        #expect(index.events.last?.clip == "clips/" + clip.lastPathComponent && index.events.last?.end == end, "\(index.events)")
    }

    @Test("with segments, events are marked in the index and the segments holding them outlive --max-disk")
    func marked() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("gate", isDirectory: true)
        let output = SegmentedMovieFileOutput()
        try output.setSegmentDuration(CaptureTime(value: 1, timescale: 1))
        try output.setEventRecording(EventRecording(preRoll: 0.5, postRoll: 0.5, writesClips: false))
        try output.setRetention(SegmentRetention(maxBytes: 1))
        let test = try MovieFileOutputTests.session(audio: false, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let events = SegmentEvents()
        try output.startRecording(to: folder, delegate: events)
        try await Task.sleep(for: .seconds(1.6))
        let event = try #require(output.triggerEvent("signal"))
        #expect(event.clip == nil)
        try await Task.sleep(for: .seconds(3))
        output.stopRecording()
        _ = try await events.recordingFinished(within: 10)
        let index = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: folder.appendingPathComponent("index.json")))
        let marked = try #require(index.events.first, "\(index)")
        #expect(marked.kinds == ["signal"] && marked.clip == nil && marked.end != nil)
        // Everything else went to the 1-byte limit; the segments holding the event are kept, and play.
        let held = index.segments.filter { index.holdsEvent($0) }
        #expect(!held.isEmpty && held.count == index.segments.filter { !$0.open }.count, "\(index.segments.map(\.file))")
        for segment in held {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(segment.file).path))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("clips").path))
    }
}
