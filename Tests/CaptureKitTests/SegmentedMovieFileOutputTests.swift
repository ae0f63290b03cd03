import Foundation
import Testing
@testable import CaptureKit

/// Continuous recording into segment files, judged by ffprobe: each segment the asked length to
/// the frame, every frame in exactly one file, timestamps and audio running on across files,
/// names and creation times from the wall clock, and the folder's index.
@Suite("Segmented movie file output", .ownDevices, .serialized)
struct SegmentedMovieFileOutputTests {
    /// Records `seconds` of the 640x480 virtual camera (and microphone when `audio`) in segments
    /// of `segment` seconds into `folder`, as `fileType` files.
    static func record(into folder: URL, seconds: Double, segment: Int = 1, audio: Bool = true, fileType: String = "mp4",
                       connection configure: (CaptureConnection) -> Void = { _ in }) async throws -> (SegmentEvents, SegmentedMovieFileOutput) {
        let output = SegmentedMovieFileOutput()
        output.fileType = fileType
        try output.setSegmentDuration(CaptureTime(value: Int64(segment), timescale: 1))
        output.movieFragmentInterval = CaptureTime(value: 1, timescale: 2)
        let test = try MovieFileOutputTests.session(audio: audio, outputs: [output])
        if let connection = output.connection(with: .video) { configure(connection) }
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let events = SegmentEvents()
        try output.startRecording(to: folder, delegate: events)
        #expect(output.isRecording)
        try await Task.sleep(for: .seconds(seconds))
        output.stopRecording()
        let ending = try await events.recordingFinished(within: 10)
        #expect(ending == .some(nil), "did-finish-recording: \(String(describing: ending))")
        #expect(!output.isRecording)
        return (events, output)
    }

    @Test("a portrait connection: every segment's pixels as the sensor gives them, with the display matrix ffprobe reads as rotation -90")
    func portrait() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("portrait", isDirectory: true)
        let (events, _) = try await Self.record(into: folder, seconds: 2.5, audio: false) { $0.videoOrientation = .portrait }
        #expect(events.finished.count >= 2, "\(events.all)")
        for (segment, _) in events.finished {
            let video = try #require(try MovieProbe(segment.url.path).video)
            #expect(video.width == 640 && video.height == 480 && video.rotation == -90,
                    "\(segment.url.lastPathComponent): \(video.width ?? 0)x\(video.height ?? 0), rotation \(String(describing: video.rotation))")
        }
    }

    @Test("1 s segments of a 3.5 s recording: each closed one 30 frames to the frame, all frames once, times running on, named and dated by the wall clock; the index rebuilt from the files alone says the same",
          arguments: [("mp4", "aac"), ("mkv", "opus")])
    func segments(fileType: String, audioCodec: String) async throws {
        let folder = try temporaryDirectory().appendingPathComponent("door", isDirectory: true)
        let before = Date()
        let (events, _) = try await Self.record(into: folder, seconds: 3.5, fileType: fileType)
        let finished = events.finished
        #expect(finished.count >= 3, "\(events.all)")
        #expect(finished.dropLast().allSatisfy { $0.1 == .boundary } && finished.last?.1 == .stopped, "\(finished.map(\.1))")
        var expectedStart = 0.0
        var previousEnd: Double?
        for (index, (segment, _)) in finished.enumerated() {
            let probe = try MovieProbe(segment.url.path)
            let video = try #require(probe.video, "\(probe)")
            let audio = try #require(probe.audio, "\(probe)")
            #expect(video.codec == "h264" && audio.codec == audioCodec && segment.url.pathExtension == fileType)
            // Dated in the file too: MP4's header holds whole seconds, Matroska's DateUTC nanoseconds.
            let created = try #require(probe.creationTime, "no creation_time in \(segment.url.lastPathComponent)")
            #expect(abs(created.timeIntervalSince(segment.startDate)) < (fileType == "mkv" ? 0.001 : 1), "\(created) for \(segment.startDate)")
            if index < finished.count - 1 {
                #expect(video.frames == 30, "segment \(index): \(video.frames) frames")
            }
            #expect(video.frames == segment.frameCount, "segment \(index): ffprobe counts \(video.frames), the delegate said \(segment.frameCount)")
            // Times run on: each file starts where the last ended.
            #expect(abs(video.startTime - expectedStart) < 0.002, "segment \(index) starts at \(video.startTime), expected \(expectedStart)")
            if let previousEnd { #expect(abs(segment.startTime - previousEnd) < 0.002) }
            previousEnd = segment.startTime + segment.duration
            expectedStart += Double(video.frames) / 30
            // Named by the wall clock of its first frame, to the millisecond.
            let name = segment.url.deletingPathExtension().lastPathComponent
            #expect(name == SegmentNaming.name(for: segment.startDate), "\(name)")
            #expect(segment.startDate >= before.addingTimeInterval(-1) && segment.startDate <= Date())
            #expect(segment.url.deletingLastPathComponent().standardizedFileURL == folder.standardizedFileURL)
            #expect(Int64(probe.size) == segment.byteCount)
        }
        // Names sort by time, and follow each other by the segment length on the capture clock.
        let names = finished.map { $0.0.url.lastPathComponent }
        #expect(names == names.sorted())
        // The index lists them all, closed, with the capture clock.
        let index = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: folder.appendingPathComponent("index.json")))
        #expect(index.segments.map(\.file) == names)
        #expect(index.segments.allSatisfy { !$0.open && $0.recording == 1 })
        #expect(index.segments.map(\.frames) == finished.map { $0.0.frameCount })
        // Rebuilt from the files alone (the index lost): the same segments, frames, times.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("index.json"))
        let rebuilt = SegmentIndex.load(folder: folder)
        #expect(rebuilt.segments.map(\.file) == names && rebuilt.segments.map(\.frames) == index.segments.map(\.frames))
        for (read, written) in zip(rebuilt.segments, index.segments) {
            #expect(abs(read.startTime - written.startTime) < 0.002 && abs(read.duration - written.duration) < 0.002 && read.bytes == written.bytes,
                    "\(read) rebuilt, \(written) written")
        }
    }
}

extension SegmentedMovieFileOutputTests {
    @Test("the wall clock stepped back since the folder's last segment (NTP after a restart): names still sort after it, and the index keeps the capture clock")
    func clockSteppedBack() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("shed", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A segment recorded "an hour from now": to this recording, the clock went back an hour.
        let future = Date().addingTimeInterval(3600)
        var index = SegmentIndex()
        index.segments.append(.init(file: SegmentNaming.name(for: future) + ".mp4", start: SegmentIndex.format(future), recording: 1,
                                    startTime: 0, duration: 1, frames: 30, bytes: 1000, open: false))
        try index.save(folder: folder)
        let (events, _) = try await Self.record(into: folder, seconds: 2.5, audio: false)
        let finished = events.finished.map(\.0)
        #expect(finished.count >= 2)
        let saved = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: folder.appendingPathComponent("index.json")))
        let names = saved.segments.map(\.file)
        #expect(names.count == finished.count + 1 && names == names.sorted(), "\(names)")
        #expect(finished.allSatisfy { $0.startDate > future }, "\(finished.map(\.startDate)) after \(future)")
        // Spaced as on the capture clock, a second apart.
        for (earlier, later) in zip(finished, finished.dropFirst()) {
            #expect(abs(later.startDate.timeIntervalSince(earlier.startDate) - 1) < 0.002, "\(earlier.startDate) → \(later.startDate)")
        }
        // The capture clock goes on from 0, a segment at a time, whatever the names say.
        #expect(saved.segments.dropFirst().map(\.recording).allSatisfy { $0 == 2 })
        for (offset, entry) in saved.segments.dropFirst().enumerated() {
            #expect(abs(entry.startTime - Double(offset)) < 0.002, "\(entry.file): \(entry.startTime)")
        }
    }
}
