import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// Stills and recordings, and `/recordings/` serving only what is inside its folder.
@Suite("Camera server: snap, record, recordings", .serialized)
struct RecordingsTests {
    @Test("POST /api/snap answers a 640x480 JPEG with EXIF")
    func snap() async throws {
        try await withServer { harness in
            let reply = try await harness.request("POST", "/api/snap")
            #expect(reply.status == 200 && reply.headers["content-type"] == "image/jpeg")
            let bytes = [UInt8](reply.body)
            #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == [0xFF, 0xD9])
            // An APP1 segment with the Exif header, and the picture's size in a SOF marker.
            let exif = [UInt8]("Exif".utf8) + [0, 0]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: exif) }, "no EXIF in \(bytes.count) bytes")
            let size = Self.jpegSize(bytes)
            #expect(size?.width == 640 && size?.height == 480, "\(String(describing: size))")
        }
    }

    @Test("GET /snapshot.jpg: a 640x480 JPEG whose EXIF exiftool reads, a new frame each poll; ten polls at once share one still; the token in the URL or nothing")
    func snapshot() async throws {
        try await withServer(token: "poll-token") { harness in
            let denied = try await harness.request("GET", "/snapshot.jpg", authorize: false)
            #expect(denied.status == 401 && denied.body.isEmpty)
            // As Home Assistant's generic camera polls it: the token in the URL.
            let first = try await harness.request("GET", "/snapshot.jpg?token=poll-token", authorize: false)
            #expect(first.status == 200 && first.headers["content-type"] == "image/jpeg" && first.headers["cache-control"] == "no-store")
            let size = Self.jpegSize([UInt8](first.body))
            #expect(size?.width == 640 && size?.height == 480, "\(String(describing: size))")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString).jpg")
            defer { try? FileManager.default.removeItem(at: file) }
            try first.body.write(to: file)
            let exif = try runTool("/usr/bin/exiftool", ["-s", "-s", "-s", "-DateTimeOriginal", "-ExifImageWidth", file.path])
                .split(separator: "\n").map(String.init)
            let taken = exif.first.flatMap { Self.exifDate.date(from: $0) }
            #expect(exif.count == 2 && exif[1] == "640" && taken.map { abs($0.timeIntervalSinceNow) < 5 } == true, "\(exif)")
            // Not a stale frame: the virtual scene moves, and the next poll sees it moved.
            try await Task.sleep(for: .milliseconds(300))
            let second = try await harness.request("GET", "/snapshot.jpg")
            #expect(second.status == 200 && second.body != first.body)
            // Ten pollers at once: each gets a whole JPEG, and they share stills.
            let before = await harness.server.snapshots.made
            let replies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<10 { group.addTask { try await harness.request("GET", "/snapshot.jpg").body } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            let made = await harness.server.snapshots.made - before
            #expect(replies.count == 10 && replies.allSatisfy { [UInt8]($0).starts(with: [0xFF, 0xD8]) && [UInt8]($0).suffix(2) == [0xFF, 0xD9] })
            #expect(made >= 1 && made < 10 && Set(replies).count == made, "\(made) stills for 10 polls, \(Set(replies).count) distinct")
        }
    }

    /// EXIF's `YYYY:MM:DD HH:MM:SS`, local time.
    static let exifDate = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter
    }()

    /// The size in a JPEG's first SOF marker.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC3).contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }

    @Test("Record start/stop writes a timestamped .mp4, listed in /recordings/ and served whole; 409s while (not) recording")
    func record() async throws {
        try await withServer { harness in
            let notRecording = try await harness.request("POST", "/api/record/stop")
            #expect(notRecording.status == 409 && notRecording.error?.code == "notRecording", "\(notRecording.text)")
            let start = try await harness.request("POST", "/api/record/start")
            #expect(start.status == 201, "\(start.text)")
            let name = try #require(start.object?["name"] as? String, "\(start.text)")
            #expect(name.hasPrefix("capture-") && name.hasSuffix(".mp4"))
            let again = try await harness.request("POST", "/api/record/start")
            #expect(again.status == 409 && again.error?.code == "recordingInProgress", "\(again.text)")
            let state = try await harness.request("GET", "/api/state")
            #expect((state.object?["recording"] as? [String: Any])?["name"] as? String == name)
            // A still while recording.
            let snap = try await harness.request("POST", "/api/snap")
            #expect(snap.status == 200)
            try await Task.sleep(for: .seconds(1.5))
            let stop = try await harness.request("POST", "/api/record/stop")
            #expect(stop.status == 200, "\(stop.text)")
            let size = try #require(stop.object?["size"] as? Int, "\(stop.text)")
            #expect(size > 10_000 && (stop.object?["duration"] as? Double ?? 0) > 0.5, "\(stop.text)")
            let list = try await harness.request("GET", "/recordings/")
            let entries = try #require(list.json as? [[String: Any]], "\(list.text)")
            let entry = try #require(entries.first { $0["name"] as? String == name }, "\(list.text)")
            #expect(entry["size"] as? Int == size && entry["url"] as? String == "/recordings/\(name)" && entry["date"] is String)
            let file = try await harness.request("GET", "/recordings/\(name)")
            #expect(file.status == 200 && file.body.count == size && file.headers["content-type"] == "video/mp4")
            // An ISO BMFF file: ftyp first.
            #expect(file.body.count > 8 && String(decoding: file.body[4..<8], as: UTF8.self) == "ftyp")
        }
    }

    @Test("/recordings/ serves only files inside its folder: .., %2e%2e, encoded slashes, absolute paths and symlinks out are 404")
    func traversal() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("capture-traversal-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("TOPSECRET-CONTENT".utf8).write(to: root.appendingPathComponent("secret.txt"))
        try Data("inside".utf8).write(to: folder.appendingPathComponent("inside.mp4"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out.mp4").path, withDestinationPath: root.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("alias.mp4").path, withDestinationPath: "inside.mp4")
        defer { try? FileManager.default.removeItem(at: root) }
        try await withServer(recordings: folder) { harness in
            #expect(try harness.raw("/recordings/inside.mp4") == (200, "inside"))
            #expect(try harness.raw("/recordings/alias.mp4") == (200, "inside"), "a symlink that stays inside is served")
            for target in ["/recordings/../secret.txt", "/recordings/%2e%2e/secret.txt", "/recordings/%2E%2E%2Fsecret.txt", "/recordings/..%2fsecret.txt",
                           "/recordings/..", "/recordings/%2e%2e", "/recordings/.", "/recordings/out.mp4", "/recordings/etc/passwd", "/recordings/etc",
                           "/recordings/%2fetc%2fpasswd", "/recordings//etc/passwd", "/recordings/" + root.appendingPathComponent("secret.txt").path,
                           "/recordings/sub", "/recordings/nothing.mp4", "/recordings/inside.mp4%00.txt", "/recordings/..%5csecret.txt"] {
                let (status, body) = try harness.raw(target)
                #expect(status == 404, "\(target): \(status) \(body)")
                #expect(!body.contains("TOPSECRET") && !body.contains("root:"), "\(target) leaked: \(body)")
                #expect(body.contains("\"notFound\""), "\(target): \(body)")
            }
            let list = try await harness.request("GET", "/recordings/")
            let names = (list.json as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(Set(names) == ["inside.mp4", "alias.mp4"], "only the files inside are listed: \(names)")
        }
    }
}
