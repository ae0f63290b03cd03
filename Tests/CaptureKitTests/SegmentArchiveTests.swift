import Foundation
import Testing
@testable import CaptureKit

/// A segment folder read by wall-clock time: one MP4 of a range from the segments' own
/// fragments, cut at the key frame at or before the start, judged by ffprobe and ffmpeg; a
/// thumbnail at a time, against ffmpeg's decode of the same key frame; and an
/// index that names files outside its folder.
@Suite("Segment archive", .ownDevices, .serialized)
struct SegmentArchiveTests {
    @Test("an export across three segments starts at the key frame at or before its start, says so, and ffmpeg decodes every frame of it, with audio; the thumbnail there is that key frame",
          arguments: [("mp4", "aac"), ("mkv", "opus")])
    func exportRange(fileType: String, audioCodec: String) async throws {
        let folder = try temporaryDirectory().appendingPathComponent("bench", isDirectory: true)
        _ = try await SegmentedMovieFileOutputTests.record(into: folder, seconds: 4.6, fileType: fileType)
        let archive = SegmentArchive(folder: folder)
        let all = archive.segments(from: .distantPast, to: .distantFuture)
        try #require(all.count >= 4, "\(all)")
        let from = all[1].start.addingTimeInterval(0.3), to = all[3].start.addingTimeInterval(0.4)
        #expect(archive.segments(from: from, to: to).map(\.url) == Array(all[1...3]).map(\.url))
        let file = folder.deletingLastPathComponent().appendingPathComponent("export.\(fileType)")
        let export = try archive.export(from: from, to: to, destination: file)
        #expect(export.fileType == fileType)
        // Cut at a key frame at or before the start: segments start with one, a second apart.
        #expect(export.start <= from && from.timeIntervalSince(export.start) < 1.0, "starts \(from.timeIntervalSince(export.start)) s early")
        #expect(export.end >= to, "ends \(to.timeIntervalSince(export.end)) s early")
        let probe = try MovieProbe(file.path)
        let video = try #require(probe.video), audio = try #require(probe.audio)
        #expect(video.codec == "h264" && audio.codec == audioCodec)
        let seconds = export.end.timeIntervalSince(export.start)
        #expect(abs(Double(video.frames) - seconds * 30) <= 1, "\(video.frames) frames in \(seconds) s")
        // Times run on from the recording's clock: the first frame is where the cut is.
        let recordingStart = all[0].start.addingTimeInterval(-all[0].recordingTime)
        #expect(abs(video.startTime - export.start.timeIntervalSince(recordingStart)) < 0.002, "\(video.startTime)")
        let decode = try run("/usr/bin/ffmpeg", ["-v", "error", "-i", file.path, "-f", "null", "-"])
        #expect(decode.isEmpty, "ffmpeg: \(decode)")
        // The thumbnail at the range's start is the key frame the export starts with, scaled.
        let thumbnail = folder.deletingLastPathComponent().appendingPathComponent("thumbnail.jpg")
        try archive.thumbnail(at: from).write(to: thumbnail)
        let width = try #require(video.width), height = try #require(video.height)
        let fromThumbnail = try Self.gray(thumbnail, scale: nil), fromExport = try Self.gray(file, scale: "320:\(320 * height / width)")
        #expect(fromThumbnail.count == 320 * (320 * height / width), "\(fromThumbnail.count) bytes: not 320 across with the aspect of \(width)x\(height)")
        let difference = zip(fromThumbnail, fromExport).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, fromExport.count)
        #expect(fromThumbnail.count == fromExport.count && difference < 6, "mean difference \(difference)")
        #expect(try archive.thumbnail(at: from, maxWidth: 64).count < archive.thumbnail(at: from).count)
        #expect(throws: CaptureError.self) { try archive.thumbnail(at: from, maxWidth: 0) }
        #expect(throws: CaptureError.self) { try archive.thumbnail(at: Date(timeIntervalSince1970: 0)) }
        // A range the folder does not cover is an error naming it.
        #expect(throws: CaptureError.self) { try archive.export(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 10), destination: file) }
        #expect(throws: CaptureError.self) { try archive.export(from: to, to: from, destination: file) }
    }

    /// The first frame of a movie or a picture as 8-bit gray pixels, scaled by ffmpeg.
    static func gray(_ file: URL, scale: String?) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-i", file.path, "-frames:v", "1"] + (scale.map { ["-vf", "scale=\($0)"] } ?? [])
            + ["-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    @Test("index entries naming files outside the folder (../, absolute, a link out) are left out")
    func pathsStayInFolder() throws {
        let root = try temporaryDirectory()
        let folder = root.appendingPathComponent("cams", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: root.appendingPathComponent("secret.mp4"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.mp4"), withDestinationURL: root.appendingPathComponent("secret.mp4"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("inside.mp4"))
        func entry(_ file: String) -> String {
            "{\"file\":\"\(file)\",\"start\":\"2026-11-29T10:00:00.000Z\",\"recording\":1,\"startTime\":0,\"duration\":1,\"frames\":30,\"bytes\":1,\"open\":false}"
        }
        let files = ["../secret.mp4", root.appendingPathComponent("secret.mp4").path, "link.mp4", "sub/../../secret.mp4", "inside.mp4"]
        let index = "{\"version\":1,\"segments\":[\(files.map(entry).joined(separator: ","))],\"events\":[]}"
        try Data(index.utf8).write(to: folder.appendingPathComponent("index.json"))
        let segments = SegmentArchive(folder: folder).segments(from: .distantPast, to: .distantFuture)
        #expect(segments.map(\.url.lastPathComponent) == ["inside.mp4"], "\(segments)")
    }
}
