import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// What a careless or hostile client sends: broken bodies, lying offers, racing commands,
/// files that are not recordings, connections that never finish or never close.
@Suite("Camera server: hostile input", .serialized)
struct HostileInputTests {
    @Test("A malformed chunked body is 400 on every POST route, not 500")
    func malformedChunked() async throws {
        try await withServer { harness in
            for path in ["/api/controls", "/api/device", "/api/snap", "/api/record/start", "/api/record/stop", "/whep"] {
                let reply = try harness.raw(path, method: "POST", headers: ["Transfer-Encoding: chunked", "Content-Type: application/json"],
                                            body: "zz\r\n{}\r\n0\r\n\r\n")
                #expect(reply.status == 400, "POST \(path): \(reply.status) \(reply.body)")
            }
            let state = try await harness.request("GET", "/api/state")
            #expect(state.object?["running"] as? Bool == true)
        }
    }

    @Test("A trailing comma does not switch the camera; invalid UTF-8 and 1e400 are named")
    func strictJSON() async throws {
        try await withServer { harness in
            let comma = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "virtual:front",}"#)
            #expect(comma.status == 400 && comma.error?.message.contains("trailing comma") == true, "\(comma.text)")
            let state = try await harness.request("GET", "/api/state")
            #expect((state.object?["device"] as? [String: Any])?["uniqueID"] as? String == "virtual:back", "not switched: \(state.text)")
            let huge = try await harness.request("POST", "/api/controls", json: #"{"videoZoomFactor": 1e400}"#)
            #expect(huge.status == 400 && huge.error?.message.contains("1e400") == true, "\(huge.text)")
            var bytes = Data(#"{"uniqueID": "virtual"#.utf8)
            bytes.append(0xFF)
            bytes.append(contentsOf: Data(#""}"#.utf8))
            let utf8 = try await harness.request("POST", "/api/device", body: bytes, contentType: "application/json")
            #expect(utf8.status == 400 && utf8.error?.message.contains("invalid UTF-8 at byte 21 (0xFF)") == true, "\(utf8.text)")
        }
    }

    @Test("A WebSocket upgrade without the token is 401, as for every other route")
    func webSocketToken() async throws {
        try await withServer(token: CameraServer.Configuration.generateToken()) { harness in
            let upgrade = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
            let fd = try connectLoopback(port: harness.port)
            defer { close(fd) }
            let head = (["GET /ws/metadata HTTP/1.1", "Host: 127.0.0.1:\(harness.port)"] + upgrade).joined(separator: "\r\n") + "\r\n\r\n"
            _ = head.withCString { send(fd, $0, strlen($0), 0) }
            let answer = try #require(readHead(fd))
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
        }
    }

    @Test("Dot-files and FIFOs in the recordings folder are neither listed nor served")
    func recordingsRegularFilesOnly() async throws {
        try await withServer { harness in
            try Data("secret".utf8).write(to: harness.recordings.appendingPathComponent(".hidden.mp4"))
            try Data("movie".utf8).write(to: harness.recordings.appendingPathComponent("shown.mp4"))
            #expect(mkfifo(harness.recordings.appendingPathComponent("pipe.mp4").path, 0o644) == 0)
            let list = try await harness.request("GET", "/recordings/")
            let names = (list.json as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["shown.mp4"], "\(list.text)")
            for name in [".hidden.mp4", "%2ehidden.mp4", "pipe.mp4"] {
                let reply = try harness.raw("/recordings/\(name)")
                #expect(reply.status == 404, "\(name): \(reply.status) \(reply.body)")
            }
            #expect(try harness.raw("/recordings/shown.mp4").body == "movie")
        }
    }

    @Test("record/start and record/stop 5 ms apart: 201, then 200 for that recording, which stops; its file plays")
    func racingRecordCommands() async throws {
        try await withServer { harness in
            // The record routes' first request pays for what runs the first time (its body
            // reader, the route, the command queue): a stop with nothing recording (409) pays it
            // here, so the start below is not slower than the stop 5 ms behind it for that alone.
            let warm = try await harness.request("POST", "/api/record/stop")
            #expect(warm.status == 409, "\(warm.text)")
            // Written on raw sockets, so the start reaches the server 5 ms before the stop; two
            // `request` calls in flight do not promise their order (the stop could come first).
            let start = try harness.send("/api/record/start", method: "POST", headers: ["Content-Length: 0"])
            try await Task.sleep(for: .milliseconds(5))
            let stop = try harness.send("/api/record/stop", method: "POST", headers: ["Content-Length: 0"])
            defer { close(start); close(stop) }
            let started = harness.receive(start), stopped = harness.receive(stop)
            #expect(started.status == 201, "\(started.text)")
            #expect(stopped.status == 200 && stopped.object?["name"] as? String == started.object?["name"] as? String, "\(stopped.text)")
            let state = try await harness.request("GET", "/api/state")
            #expect((state.object?["recording"] as? [String: Any])?["recording"] as? Bool == false, "\(state.text)")
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.request("GET", "/api/state").object.flatMap { ($0["recording"] as? [String: Any])?["recording"] as? Bool } == false)
            let name = try #require(started.object?["name"] as? String)
            let probe = try ffprobeStreams(harness.recordings.appendingPathComponent(name))
            #expect(probe.contains("codec_type=video"), "\(probe)")
        }
    }

    @Test("WHEP offers with a wrong field are 400 naming it, never 503 with the pipeline's words")
    func malformedOffers() async throws {
        try await withServer { harness in
            let offer = Self.browserOffer
            for (mutated, mention) in [(offer.replacingOccurrences(of: "96 97", with: "999 97"), "999"),
                                       (offer.replacingOccurrences(of: "a=rtpmap:96", with: "a=rtpmap:-5"), "-5"),
                                       (offer.replacingOccurrences(of: "profile-level-id=42e01f", with: "profile-level-id=zz"), "profile-level-id"),
                                       (offer.replacingOccurrences(of: "a=ice-ufrag:Wb5z\r\n", with: ""), "ice-ufrag"),
                                       (offer.replacingOccurrences(of: "a=ice-pwd:Ak8rNn5eXbd9Ff4cVuNsMpQw\r\n", with: ""), "ice-pwd"),
                                       (offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=fingerprint") }.joined(separator: "\r\n") + "\r\n", "fingerprint")] {
                let reply = try await harness.request("POST", "/whep", body: Data(mutated.utf8), contentType: "application/sdp")
                #expect(reply.status == 400 && reply.error?.message.contains(mention) == true, "\(mention): \(reply.status) \(reply.text)")
                #expect(!reply.text.contains("webrtcbin") && !reply.text.contains("GStreamer"), "\(reply.text)")
            }
            let good = try await harness.request("POST", "/whep", body: Data(offer.utf8), contentType: "application/sdp")
            #expect(good.status == 201 && good.text.hasPrefix("v=0"), "\(good.status) \(good.text)")
            if let location = good.headers["location"] { _ = try await harness.request("DELETE", location) }
        }
    }

    @Test("Connections that say nothing, half a head, garbage or HTTP/1.0 keep-alive are closed by the head and idle timeouts")
    func timeouts() async throws {
        try await withServer(limits: .init(requestHeadTimeout: 1, idleTimeout: 2)) { harness in
            let cases: [(String, String)] = [("silent", ""), ("half a head", "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "),
                                             ("garbage", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}"),
                                             ("garbage with a blank line", "NOT HTTP AT ALL\r\n\r\n"),
                                             ("HTTP/1.0 keep-alive", "GET /api/state HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
                                             ("HTTP/1.1 then idle", "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")]
            let sockets = try cases.map { _, text in
                let fd = try connectLoopback(port: harness.port)
                _ = text.withCString { send(fd, $0, strlen($0), 0) }
                return fd
            }
            defer { sockets.forEach { close($0) } }
            // Each is closed by the server: recv reads what came, then end of file. A hang is caught
            // by the receive timeout (the timeouts are 1 and 2 s; 20 s is only a bound for a hang).
            for ((name, _), fd) in zip(cases, sockets) {
                #expect(closedByPeer(fd, within: 20), "\(name): still open")
            }
            // A long response is not idle: MJPEG keeps coming past both timeouts.
            let mjpeg = try connectLoopback(port: harness.port)
            defer { close(mjpeg) }
            _ = "GET /mjpeg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".withCString { send(mjpeg, $0, strlen($0), 0) }
            try await Task.sleep(for: .seconds(3.5))
            #expect(bytesArrive(mjpeg), "MJPEG still streams after the idle timeout")
        }
    }

    @Test("At most maximumConnections are accepted: 40 idle clients hold no more than the limit of the server's descriptors")
    func connectionLimit() async throws {
        try await withServer(limits: .init(maximumConnections: 8)) { harness in
            _ = try await harness.request("GET", "/api/state")
            try await Task.sleep(for: .milliseconds(300))
            let before = FileDescriptorBudget.open
            // The clients are in this process too: each is closed once (a second close could
            // close a descriptor the server has since been given).
            let sockets = try (0..<40).map { _ in try connectLoopback(port: harness.port) }
            try? await Task.sleep(for: .milliseconds(500))
            let grown = FileDescriptorBudget.open - before - sockets.count
            sockets.forEach { close($0) }
            #expect(grown <= 8 + 4, "the server took \(grown) descriptors for 40 connections")
            // Once they close, the server answers again.
            let state = try await harness.request("GET", "/api/state")
            #expect(state.status == 200)
        }
    }

    /// An offer as Chromium makes it for a receive-only H.264 viewer (trimmed to what matters).
    static let browserOffer = try! String(contentsOf: chromiumOfferURL, encoding: .utf8)
}

/// `Tests/CaptureKitTests/Fixtures/whep/chromium-offer.sdp`: a receive-only H.264 offer as
/// Chromium makes it (trimmed), one payload type for H.264 (96) and one for RTX (97).
let chromiumOfferURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("CaptureKitTests/Fixtures/whep/chromium-offer.sdp")

/// The response head on `fd` (up to the blank line), or nil when nothing came within 10 s.
func readHead(_ fd: Int32) -> String? {
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var data = Data()
    var byte: UInt8 = 0
    while recv(fd, &byte, 1, 0) == 1 {
        data.append(byte)
        if data.suffix(4) == Data("\r\n\r\n".utf8) { break }
    }
    return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
}

/// Whether the peer closes `fd` within `seconds`: everything it sends is read, then end of file.
func closedByPeer(_ fd: Int32, within seconds: Int) -> Bool {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
    }
}

/// Whether bytes arrive on `fd` within 2 s.
func bytesArrive(_ fd: Int32) -> Bool {
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 65536)
    var total = 0
    for _ in 0..<20 {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        total += count
    }
    return total > 0
}

/// ffprobe's `-show_streams` of `url`, as key=value lines.
func ffprobeStreams(_ url: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    process.arguments = ["-v", "error", "-show_streams", url.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
