import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// The continuous recording by time (`--segment`): events marked over the API and announced on
/// `/ws/events`, segments and events listed by time, a range exported as one MP4 that ffprobe
/// and ffmpeg read; and the mistakes, each a 4xx naming the value.
@Suite("Camera server: continuous recording by time", .serialized)
struct TimelineTests {
    /// The server's timeline, whole.
    static func timeline(_ harness: ServerHarness) async throws -> (segments: [[String: Any]], events: [[String: Any]]) {
        let reply = try await harness.request("GET", "/api/recordings")
        #expect(reply.status == 200, "\(reply.text)")
        return (reply.object?["segments"] as? [[String: Any]] ?? [], reply.object?["events"] as? [[String: Any]] ?? [])
    }

    @Test("POST /api/events marks an event that /ws/events announces and /api/recordings lists; /api/export of a range is one MP4 from the key frame at or before its start")
    func markListExport() async throws {
        try await withServer(segmentDuration: 1) { harness in
            try await eventually(seconds: 15) { try await Self.timeline(harness).segments.count >= 1 }
            let announced = Task { try await StreamsTests.messages(harness, "/ws/events", count: 1, seconds: 15) }
            try await Task.sleep(for: .seconds(1))
            let marked = try await harness.request("POST", "/api/events", json: #"{"kind": "doorbell"}"#)
            #expect(marked.status == 201, "\(marked.text)")
            #expect(marked.object?["kinds"] as? [String] == ["doorbell"], "\(marked.text)")
            let texts = try await announced.value
            let start = try #require(texts.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }, "\(texts)")
            #expect(start["event"] as? String == "start" && start["kinds"] as? [String] == ["doorbell"], "\(start)")

            try await eventually(seconds: 15) { try await Self.timeline(harness).segments.count >= 4 }
            let (segments, events) = try await Self.timeline(harness)
            #expect(events.contains { $0["kinds"] as? [String] == ["doorbell"] }, "\(events)")
            let second = try #require(segments[1]["start"] as? String), thirdEnd = try #require(segments[2]["end"] as? String)
            let from = try #require(SegmentArchive.date(fromTimestamp: second)).addingTimeInterval(0.3)
            let fromText = SegmentArchive.timestamp(from)
            let export = try await harness.request("GET", "/api/export?from=\(fromText)&to=\(thirdEnd)")
            #expect(export.status == 200 && export.headers["content-type"] == "video/mp4", "\(export.status) \(export.headers)")
            let trueStart = try #require(export.headers["x-capture-start"].flatMap(SegmentArchive.date(fromTimestamp:)), "\(export.headers)")
            #expect(trueStart <= from && from.timeIntervalSince(trueStart) < 1.0, "\(trueStart) for \(from)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).mp4")
            defer { try? FileManager.default.removeItem(at: file) }
            try export.body.write(to: file)
            let probe = try runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0", file.path])
            let fields = probe.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            #expect(fields.first == "h264" && (Int(fields.last ?? "") ?? 0) >= 40, "\(probe)")
            #expect(try runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", file.path, "-f", "null", "-"]).isEmpty)

            // The same range as HLS VOD: whole segments, read by ffprobe over HTTP as a player does.
            let playlist = try await harness.request("GET", "/api/hls.m3u8?from=\(fromText)&to=\(thirdEnd)")
            #expect(playlist.status == 200 && playlist.headers["content-type"] == "application/vnd.apple.mpegurl", "\(playlist.status) \(playlist.text)")
            let listed = playlist.text.split(separator: "\n").filter { $0.hasPrefix("/api/hls/segment.m4s?file=") }
            #expect(listed.count == 2 && playlist.text.contains("#EXT-X-MAP:URI=") && playlist.text.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlist.text)")
            let hls = try runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                                       "-of", "csv=p=0", "\(harness.base.absoluteString)/api/hls.m3u8?from=\(fromText)&to=\(thirdEnd)"])
            let expected = segments[1...2].compactMap { $0["frames"] as? Int }.reduce(0, +)
            // (The stream is listed once under its HLS program and once alone.)
            let counts = hls.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            #expect(!counts.isEmpty && counts.allSatisfy { $0 == expected }, "ffprobe: \(hls); the two segments hold \(expected)")
            let outside = try await harness.request("GET", "/api/hls/segment.m4s?file=../index.json")
            #expect(outside.status == 404, "\(outside.text)")

            // Mistakes name the value.
            let badTime = try await harness.request("GET", "/api/export?from=yesterday")
            #expect(badTime.status == 400 && badTime.error?.message.contains("from 'yesterday' is not a time") == true, "\(badTime.text)")
            let backwards = try await harness.request("GET", "/api/recordings?from=\(thirdEnd)&to=\(second)")
            #expect(backwards.status == 400, "\(backwards.text)")
            let uncovered = try await harness.request("GET", "/api/export?from=0&to=10")
            #expect(uncovered.status == 400 && uncovered.error?.message.contains("a range the folder's segments cover") == true, "\(uncovered.text)")
            let badKind = try await harness.request("POST", "/api/events", json: #"{"kind": "../../x"}"#)
            #expect(badKind.status == 400 && badKind.error?.message.contains("kind '../../x' is not a word") == true, "\(badKind.text)")
        }
    }

    @Test("without --segment the timeline's routes are 409, saying what would make them work")
    func noContinuousRecording() async throws {
        try await withServer { harness in
            for (method, path) in [("GET", "/api/recordings"), ("GET", "/api/export?from=0&to=10"), ("POST", "/api/events")] {
                let reply = try await harness.request(method, path, json: method == "POST" ? "{}" : nil)
                #expect(reply.status == 409 && reply.error?.code == "noContinuousRecording" && reply.error?.message.contains("--segment") == true,
                        "\(method) \(path): \(reply.status) \(reply.text)")
            }
        }
    }
}
