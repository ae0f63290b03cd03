import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// DNS rebinding and cross-site requests: a page on another site, in the user's browser, must
/// not drive the camera of a `capture serve` on loopback.
@Suite("Camera server: Host and Origin", .serialized)
struct OriginTests {
    static let policy = RequestOriginPolicy(hosts: ["127.0.0.1", "localhost", "::1"], origins: ["https://camera.example.com"])

    @Test("The policy: a foreign Host is refused; a foreign or null Origin may read but not change or open a WebSocket")
    func policy() {
        let policy = Self.policy
        #expect(policy.refusal(method: "POST", host: "evil.example:8080", origin: "http://evil.example:8080", upgrade: nil) == .foreignHost("evil.example:8080"))
        #expect(policy.refusal(method: "GET", host: "evil.example", origin: nil, upgrade: nil) == .foreignHost("evil.example"))
        #expect(policy.refusal(method: "GET", host: "127.0.0.1:8080:9", origin: nil, upgrade: nil) == .foreignHost("127.0.0.1:8080:9"))
        #expect(policy.refusal(method: "POST", host: "127.0.0.1:8080", origin: "http://evil.example", upgrade: nil) == .foreignOrigin("http://evil.example"))
        #expect(policy.refusal(method: "POST", host: "127.0.0.1:8080", origin: "null", upgrade: nil) == .foreignOrigin("null"))
        #expect(policy.refusal(method: "DELETE", host: "127.0.0.1:8080", origin: "http://127.0.0.1:9999", upgrade: nil) == .foreignOrigin("http://127.0.0.1:9999"))
        #expect(policy.refusal(method: "GET", host: "127.0.0.1:8080", origin: "http://evil.example", upgrade: "websocket") == .foreignOrigin("http://evil.example"))
        // Reading is not refused for its Origin (CORS keeps the answer from the other page).
        #expect(policy.refusal(method: "GET", host: "127.0.0.1:8080", origin: "http://evil.example", upgrade: nil) == nil)
        // The server's own page, under any of its names; programs without Origin.
        #expect(policy.refusal(method: "POST", host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", upgrade: nil) == nil)
        #expect(policy.refusal(method: "POST", host: "LOCALHOST:8080", origin: "http://localhost:8080", upgrade: nil) == nil)
        #expect(policy.refusal(method: "POST", host: "[::1]:8080", origin: "http://[::1]:8080", upgrade: "websocket") == nil)
        #expect(policy.refusal(method: "POST", host: "127.0.0.1:8080", origin: nil, upgrade: nil) == nil)
        #expect(policy.refusal(method: "POST", host: nil, origin: nil, upgrade: nil) == nil)
        // What no page sends: a WebSocket client's `ws://` origin (hummingbird-websocket's).
        #expect(policy.refusal(method: "GET", host: "127.0.0.1:8080", origin: "ws://127.0.0.1", upgrade: "websocket") == nil)
        #expect(policy.refusal(method: "GET", host: "127.0.0.1:8080", origin: "http://evil.example/path", upgrade: "websocket")
            == .foreignOrigin("http://evil.example/path"))
        // An allowed origin (a reverse proxy): its host is the server's too, its default port implied.
        #expect(policy.refusal(method: "POST", host: "camera.example.com", origin: "https://camera.example.com:443", upgrade: nil) == nil)
        #expect(policy.refusal(method: "POST", host: "camera.example.com", origin: "http://camera.example.com", upgrade: nil) == nil)
        #expect(policy.refusal(method: "POST", host: "camera.example.com", origin: "https://camera.example.com.evil", upgrade: nil)
            == .foreignOrigin("https://camera.example.com.evil"))
    }

    @Test("A rebound name (Host evil.example) is 421 on every route; the issue's text/plain POST /api/snap from a foreign Origin is 403 with no JPEG")
    func rebindingAndCSRF() async throws {
        try await withServer { harness in
            for (method, path) in [("POST", "/api/snap"), ("GET", "/api/state"), ("GET", "/"), ("POST", "/api/record/start"), ("GET", "/mjpeg"), ("GET", "/snapshot.jpg")] {
                let reply = try harness.raw(path, method: method, host: "evil.example:\(harness.port)",
                                            headers: ["Origin: http://evil.example:\(harness.port)", "Content-Type: text/plain", "Content-Length: 2"], body: "{}")
                #expect(reply.status == 421 && reply.body.contains("foreignHost") && reply.body.contains("evil.example"), "\(method) \(path): \(reply.status) \(reply.body)")
            }
            let foreign = ["Origin": "http://evil.example:\(harness.port)"]
            let snap = try await harness.request("POST", "/api/snap", json: "{}", contentType: "text/plain", headers: foreign)
            #expect(snap.status == 403 && snap.headers["content-type"]?.contains("json") == true
                    && snap.error?.code == "foreignOrigin" && snap.error?.message.contains("evil.example") == true, "\(snap.status) \(snap.text)")
            let start = try await harness.request("POST", "/api/record/start", json: "{}", contentType: "text/plain", headers: foreign)
            #expect(start.status == 403, "\(start.text)")
            let state = try await harness.request("GET", "/api/state")
            #expect((state.object?["recording"] as? [String: Any])?["recording"] as? Bool == false, "no recording started: \(state.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: harness.recordings.path).isEmpty)
            // The page's own origin keeps working, under either loopback name.
            let own = try await harness.request("POST", "/api/snap", json: "{}", headers: ["Origin": "http://127.0.0.1:\(harness.port)"])
            #expect(own.status == 200 && own.body.starts(with: [0xFF, 0xD8]), "\(own.status)")
            let local = try harness.raw("/api/state", host: "localhost:\(harness.port)")
            #expect(local.status == 200, "\(local.body)")
        }
    }

    @Test("A WebSocket upgrade of /ws/metadata from a foreign Origin is 403, not 101; from the page's own origin it opens")
    func webSocketOrigin() async throws {
        try await withServer { harness in
            let upgrade = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
            let foreign = try harness.raw("/ws/metadata", headers: upgrade + ["Origin: http://evil.example"], close: false)
            #expect(foreign.status == 403, "\(foreign.status) \(foreign.body)")
            let fd = try connectLoopback(port: harness.port)
            defer { close(fd) }
            let head = (["GET /ws/metadata HTTP/1.1", "Host: 127.0.0.1:\(harness.port)", "Origin: http://127.0.0.1:\(harness.port)"] + upgrade)
                .joined(separator: "\r\n") + "\r\n\r\n"
            _ = head.withCString { send(fd, $0, strlen($0), 0) }
            let own = try #require(readHead(fd))
            #expect(own.hasPrefix("HTTP/1.1 101"), "\(own)")
            // A close frame (masked, empty), as a client ends a WebSocket.
            _ = [UInt8]([0x88, 0x80, 0, 0, 0, 0]).withUnsafeBytes { send(fd, $0.baseAddress, 6, 0) }
        }
    }

    @Test("--allow-origin: a reverse proxy's origin may POST, and its host is taken as the server's")
    func allowedOrigin() async throws {
        try await withServer(allowedOrigins: ["https://camera.example.com"]) { harness in
            let proxied = try harness.raw("/api/snap", method: "POST", host: "camera.example.com",
                                          headers: ["Origin: https://camera.example.com", "Content-Length: 0"])
            #expect(proxied.status == 200, "\(proxied.status) \(proxied.body.prefix(200))")
            let other = try harness.raw("/api/snap", method: "POST", headers: ["Origin: https://other.example.com", "Content-Length: 0"])
            #expect(other.status == 403 && other.body.contains("camera.example.com"), "\(other.body)")
        }
        #expect(throws: CaptureError.self) { try CameraServer(configuration: .init(device: "virtual", port: 0, allowedOrigins: ["camera.example.com"])) }
    }

    @Test("Loopback is decided on the resolved addresses: a name that does not resolve, or resolves beyond loopback, needs a token")
    func loopbackByAddress() throws {
        // `127.evil.test` starts like a loopback address and resolves to nothing here (or, by a
        // hostile resolver, anywhere): it is not loopback.
        #expect(!CameraServer.Configuration(host: "127.evil.test").isLoopback)
        #expect(throws: CaptureError.self) { try CameraServer(configuration: .init(device: "virtual", host: "127.evil.test", port: 0)) }
        // inet_aton's short forms: `0` is 0.0.0.0, every interface; `127.1` is 127.0.0.1.
        #expect(!CameraServer.Configuration(host: "0").isLoopback)
        #expect(CameraServer.Configuration(host: "127.1").isLoopback)
        #expect(try ListenAddress(host: "0").address == "0.0.0.0")
        #expect(ListenAddress.isLoopbackAddress("127.255.0.9") && ListenAddress.isLoopbackAddress("::1") && ListenAddress.isLoopbackAddress("::ffff:127.0.0.1"))
        #expect(!ListenAddress.isLoopbackAddress("128.0.0.1") && !ListenAddress.isLoopbackAddress("::") && !ListenAddress.isLoopbackAddress("::ffff:10.0.0.1"))
        #expect(ListenAddress.hasMixedKinds(["127.0.0.1", "192.0.2.1"]) && !ListenAddress.hasMixedKinds(["127.0.0.1", "::1"]))
    }
}
