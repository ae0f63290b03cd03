import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// `/whep` on the server's own port, played by headless Chromium (CaptureKitTests' WHEP
/// player: its page on another origin, so CORS is exercised too).
@Suite("Camera server: WHEP", .serialized)
struct WHEPTests {
    static let player = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CaptureKitTests/Fixtures/whep/whep_player.py")

    /// The JSON after `tag ` on the player's output.
    static func report(_ tag: String, in output: String) -> [String: Any]? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("\(tag) ") }) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(tag.count + 1).utf8)) as? [String: Any]
    }

    @Test("Two browser viewers play /whep from one encode, their page's origin allowed; a camera switch keeps them playing; DELETE ends each")
    func browserPlays() async throws {
        // The player's page is on another origin: the server lets it in with --allow-origin.
        let pagePort = try freeLoopbackPort()
        try await withServer(allowedOrigins: ["http://127.0.0.1:\(pagePort)"]) { harness in
            let camera = harness.server.camera
            let player = try PlayerProcess([Self.player.path, harness.base.absoluteString + "/whep", "--viewers", "2", "--frames", "20",
                                            "--timeout", "40", "--hold", "6", "--page-port", "\(pagePort)"])
            await eventually(seconds: 50) { Self.report("PLAYING", in: player.output) != nil || !player.isRunning }
            let playing = try #require(Self.report("PLAYING", in: player.output), "the browser played: \(player.output)")
            let viewers = try #require(playing["viewers"] as? [[String: Any]])
            #expect(viewers.count == 2 && viewers.allSatisfy { ($0["frames"] as? Int ?? 0) >= 20 && $0["width"] as? Int == 640 }, "\(viewers)")
            #expect(camera.stream.statistics.clients == 2)
            // One encoder for both viewers.
            let description = camera.session.pipelineDescription
            let encoders = ["x264enc", "openh264enc", "vaapih264enc", "v4l2h264enc"].map { description.components(separatedBy: $0).count - 1 }.reduce(0, +)
            #expect(encoders == 1, "one encode: \(description)")
            // Switch the camera while they play: the viewers stay and frames keep going to them.
            let switched = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "virtual:front"}"#)
            #expect(switched.status == 200, "\(switched.text)")
            let sent = camera.stream.statistics.bytesSent
            try await Task.sleep(for: .seconds(2))
            let after = camera.stream.statistics
            #expect(after.clients == 2 && after.bytesSent > sent + 10_000, "after the switch: \(after)")
            #expect(player.wait(seconds: 30), "the player DELETEs and exits: \(player.output)")
            let deleted = try #require(Self.report("DELETED", in: player.output), "\(player.output)")
            #expect(deleted["deleted"] as? [Int] == [200, 200])
            // The browsers decoded on through the switch: ~6 s of holding at 30 frames a second,
            // the switch in its first half second.
            let before = viewers.compactMap { $0["frames"] as? Int }
            let end = (deleted["viewers"] as? [[String: Any]] ?? []).compactMap { $0["frames"] as? Int }
            let gained = zip(end, before).map { $0 - $1 }
            print("WHEP through a camera switch: frames decoded \(before) → \(end)")
            #expect(gained.count == 2 && gained.allSatisfy { $0 >= 90 }, "frames decoded after PLAYING: \(before) → \(end)")
            await eventually(seconds: 5) { camera.stream.statistics.clients == 0 }
            #expect(camera.stream.statistics.clients == 0)
            _ = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "virtual:back"}"#)
        }
    }

    @Test("POST /whep without SDP is 400, an offer without H.264 406, DELETE of an unknown viewer 404, each a JSON error with CORS")
    func httpAnswers() async throws {
        try await withServer { harness in
            let bad = try await harness.request("POST", "/whep", json: "{}")
            #expect(bad.status == 400 && bad.error?.message.contains("application/sdp") == true, "\(bad.text)")
            #expect(bad.headers["access-control-allow-origin"] == "*")
            let noVideo = try await harness.request("POST", "/whep", body: Data("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n".utf8),
                                                    contentType: "application/sdp")
            #expect(noVideo.status == 406 && noVideo.error?.message.contains("H.264") == true, "\(noVideo.text)")
            let unknown = try await harness.request("DELETE", "/whep/no-such-viewer")
            #expect(unknown.status == 404 && unknown.error != nil, "\(unknown.text)")
            let preflight = try await harness.request("OPTIONS", "/whep", headers: ["Origin": "http://player.example", "Access-Control-Request-Method": "POST"])
            #expect(preflight.status == 204 && preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
        }
    }
}

/// A child process whose output is collected as it comes.
final class PlayerProcess: @unchecked Sendable {
    let process = Process()
    private let pipe = Pipe()
    private let lock = NSLock()
    private var collected = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.collected.append(data)
            self.lock.unlock()
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    var isRunning: Bool { process.isRunning }

    /// Waits up to `seconds` for it to exit 0.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            return false
        }
        return process.terminationStatus == 0
    }
}
