import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// VideoDataOutput with `codec: .h264`: access units from the session's shared encode,
/// judged by their NAL units and by ffprobe, key frames on request and the bit rate changed
/// on a running encoder.
@Suite("Compressed video data output", .ownDevices, .serialized)
struct CompressedVideoDataOutputTests {
    /// Every access unit a stream delivers, with its time, key-frame flag and bytes.
    final class Units: Sendable {
        let units = Mutex<[(time: Double, key: Bool, bytes: [UInt8])]>([])
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(_ output: VideoDataOutput) {
            let stream = output.sampleBuffers(bufferingNewest: 4096)
            let reader = Task { [weak self] in
                for await sample in stream {
                    let bytes = (try? sample.withUnsafeBytes { Array($0) }) ?? []
                    self?.units.withLock { $0.append((Date().timeIntervalSinceReferenceDate, sample.isKeyFrame, bytes)) }
                }
            }
            task.withLock { $0 = reader }
        }

        deinit { task.withLock { $0?.cancel() } }

        var count: Int { units.withLock { $0.count } }

        func wait(for count: Int) async throws {
            for _ in 0..<500 where self.count < count { try await Task.sleep(for: .milliseconds(10)) }
            try #require(self.count >= count)
        }

        /// Bits per second delivered between `start` and `end` (reference-date seconds).
        func bitrate(from start: Double, to end: Double) -> Double {
            let bytes = units.withLock { $0.filter { $0.time >= start && $0.time < end }.reduce(0) { $0 + $1.bytes.count } }
            return Double(bytes * 8) / (end - start)
        }
    }

    /// The NAL unit types of an Annex B access unit.
    static func nalTypes(_ bytes: [UInt8]) -> [UInt8] {
        var types: [UInt8] = []
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                types.append(bytes[index + 3] & 0x1f)
                index += 3
            } else {
                index += 1
            }
        }
        return types
    }

    @Test("H.264 access units in Annex B: the first a key frame with SPS and PPS, the stream decodable by ffprobe at the camera's size")
    func accessUnits() async throws {
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(codec: .h264, keyFrameInterval: 30))
        let units = Units(frames)
        let test = try TestSession(preset: .vga640x480, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await units.wait(for: 45)
        let all = units.units.withLock { $0 }
        let first = try #require(all.first)
        #expect(first.key, "the first unit delivered is a key frame")
        #expect(Array(first.bytes.prefix(4)) == [0, 0, 0, 1] || Array(first.bytes.prefix(3)) == [0, 0, 1])
        let types = Self.nalTypes(first.bytes)
        #expect(types.contains(7) && types.contains(8) && types.contains(5), "NAL types of the first unit: \(types)")
        #expect(all.contains { !$0.key }, "P frames between key frames")
        for unit in all where unit.key { #expect(Self.nalTypes(unit.bytes).contains(7), "every key frame carries its SPS") }
        let file = try temporaryDirectory().appendingPathComponent("units.h264")
        try Data(all.flatMap(\.bytes)).write(to: file)
        let probe = try MovieProbe(file.path)
        let video = try #require(probe.video)
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480)
        #expect(video.frames == all.count)
    }

    @Test("The profile asked for is the profile encoded, as ffprobe reads it", arguments: [(H264Profile.high, "High"), (.main, "Main"),
                                                                                       (.constrainedBaseline, "Constrained Baseline")])
    func profile(_ profile: H264Profile, named name: String) async throws {
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(codec: .h264, keyFrameInterval: 30, profile: profile))
        let units = Units(frames)
        let test = try TestSession(preset: .vga640x480, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await units.wait(for: 10)
        let file = try temporaryDirectory().appendingPathComponent("units.h264")
        try Data(units.units.withLock { $0.flatMap(\.bytes) }).write(to: file)
        let read = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=profile", "-of", "csv=p=0", file.path])
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == name, "ffprobe: \(read)")
    }

    @Test("requestKeyFrame() brings a key frame within 2 frames, long before the interval")
    func keyFrameOnDemand() async throws {
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(codec: .h264, keyFrameInterval: 600))
        let units = Units(frames)
        let test = try TestSession(preset: .vga640x480, outputs: [frames])
        #expect(!frames.requestKeyFrame(), "no running compressed branch yet")
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        for round in 0..<3 {
            try await units.wait(for: 20 * (round + 1))
            let before = units.count
            #expect(frames.requestKeyFrame())
            try await units.wait(for: before + 4)
            let next = units.units.withLock { Array($0[before..<before + 4]) }
            let position = next.firstIndex { $0.key }
            #expect(position != nil && position! <= 2, "round \(round): key frames among the next units: \(next.map(\.key))")
        }
    }

    @Test("setBitrate changes the running encoder's rate: 4 s windows before and 2 s after are each within 20 % of their rate")
    func liveBitrate() async throws {
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(codec: .h264, bitrate: 400_000, keyFrameInterval: 30))
        let units = Units(frames)
        let test = try TestSession(preset: .vga640x480, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await units.wait(for: 30)
        let highStart = Date().timeIntervalSinceReferenceDate
        try await Task.sleep(for: .seconds(4))
        let high = units.bitrate(from: highStart, to: Date().timeIntervalSinceReferenceDate)
        try frames.setBitrate(150_000)
        try await Task.sleep(for: .seconds(2))
        let lowStart = Date().timeIntervalSinceReferenceDate
        try await Task.sleep(for: .seconds(4))
        let low = units.bitrate(from: lowStart, to: Date().timeIntervalSinceReferenceDate)
        // Both rates below what the virtual scene fills (~450 kbit/s): the encoder meets each.
        #expect(abs(high - 400_000) <= 400_000 * 0.2, "\(Int(high)) bit/s at 400 kbit/s")
        #expect(abs(low - 150_000) <= 150_000 * 0.2, "\(Int(low)) bit/s after setBitrate(150000); \(Int(high)) before")
        #expect(throws: CaptureError.self) { try frames.setBitrate(5) }
        #expect(throws: CaptureError.self) { try VideoDataOutput().setBitrate(500_000) }
    }

    @Test("a compressed output and a recording with the same settings share one encode")
    func sharedEncode() async throws {
        let frames = VideoDataOutput(), movie = MovieFileOutput()
        try frames.setVideoSettings(.init(codec: .h264))
        let test = try TestSession(preset: .vga640x480, outputs: [frames, movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let events = RecordingEvents()
        movie.startRecording(to: try temporaryDirectory().appendingPathComponent("shared.mp4"), recordingDelegate: events)
        let encoders = test.session.pipelineDescription.components(separatedBy: "x264enc").count - 1
        #expect(encoders == 1, "\(test.session.pipelineDescription)")
        #expect(try await events.started(within: 10))
        movie.stopRecording()
        #expect(await events.finished(within: 10) == .some(nil))
    }
}
