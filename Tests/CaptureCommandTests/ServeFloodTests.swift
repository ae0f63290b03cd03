import Foundation
import Testing

/// `capture serve` with few file descriptors, flooded with idle connections: it refuses what it
/// cannot do and its camera runs on (before: a WHEP offer aborted the process in GLib, and a
/// recording stopped the session for good).
@Suite("capture serve: floods", .serialized)
struct ServeFloodTests {
    /// One HTTP/1.1 connection kept open for several requests.
    final class Connection {
        let fd: Int32

        init(port: Int) throws {
            guard let fd = ServeFloodTests.connectLoopback(port: port, seconds: 30) else { throw POSIXError(.ECONNREFUSED) }
            self.fd = fd
        }

        deinit { close(fd) }

        /// Sends a request and reads its response (head, and a body of Content-Length bytes).
        func send(_ method: String, _ path: String, body: String = "", contentType: String = "application/json") -> (status: Int, body: Data) {
            let text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            _ = text.withCString { Foundation.send(fd, $0, strlen($0), 0) }
            var head = Data()
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                head.append(byte)
                if head.suffix(4) == Data("\r\n\r\n".utf8) { break }
            }
            let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
            let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
            let length = lines.first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while data.count < length {
                let count = recv(fd, &buffer, min(buffer.count, length - data.count), 0)
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            return (status, data)
        }
    }

    @Test("ulimit -n 256 and 250 idle connections: WHEP and record/start answer (201 or 503), the camera runs, snap works, SIGINT exits 0")
    func descriptorFlood() async throws {
        let directory = try scratchDirectory()
        let server = try ServeCommandTests.Server(["-d", "virtual", "--preset", "vga640x480", "--listen", "127.0.0.1:0",
                                                   "--recordings", directory.appendingPathComponent("clips").path], openFiles: 256)
        let url = try #require(server.url(), "no URL printed: \(server.output)")
        let port = try #require(url.port)
        let kept = try Connection(port: port)
        #expect(kept.send("GET", "/api/state").status == 200)
        // Idle connections until the server takes no more (each connect bounded to 1 s).
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<250 {
            if let fd = Self.connectLoopback(port: port, seconds: 1) { idle.append(fd) }
        }
        try await Task.sleep(for: .seconds(1))
        let whep = kept.send("POST", "/whep", body: ServeFloodTests.offer, contentType: "application/sdp")
        #expect(whep.status == 201 || whep.status == 503, "POST /whep: \(whep.status) \(String(decoding: whep.body, as: UTF8.self))")
        #expect(server.process.isRunning, "the server died: \(server.output)")
        let record = kept.send("POST", "/api/record/start")
        #expect(record.status == 201 || record.status == 503, "\(record.status) \(String(decoding: record.body, as: UTF8.self))")
        if record.status == 201 { _ = kept.send("POST", "/api/record/stop") }
        let state = kept.send("GET", "/api/state")
        let running = (try? JSONSerialization.jsonObject(with: state.body) as? [String: Any])?["running"] as? Bool
        #expect(state.status == 200 && running == true, "\(String(decoding: state.body, as: UTF8.self))")
        let snap = kept.send("POST", "/api/snap")
        #expect(snap.status == 200 && snap.body.starts(with: [0xFF, 0xD8]), "snap: \(snap.status)")
        idle.forEach { close($0) }
        idle = []
        let (status, error) = server.stop(SIGINT)
        #expect(status == 0, "\(error)")
    }

    /// A TCP connection to 127.0.0.1:`port`, connecting and reading for up to `seconds` each;
    /// nil when it does not connect.
    static func connectLoopback(port: Int, seconds: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// A receive-only H.264 offer as Chromium makes it (CaptureKitTests' fixture).
    static let offer = try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CaptureKitTests/Fixtures/whep/chromium-offer.sdp"), encoding: .utf8)
}
