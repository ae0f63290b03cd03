import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// The token: every request carries it or gets a bare 401; beyond loopback one is required.
@Suite("Camera server: token", .serialized)
struct TokenTests {
    @Test("With a token: no token or a wrong one is 401 with an empty body, on every route; the header or ?token= passes")
    func requiresToken() async throws {
        let token = CameraServer.Configuration.generateToken()
        try await withServer(token: token) { harness in
            for (method, path) in [("GET", "/"), ("GET", "/api/state"), ("GET", "/api/devices"), ("POST", "/api/snap"), ("GET", "/recordings/"),
                                   ("GET", "/no/such/route"), ("POST", "/whep"), ("GET", "/ws/metadata"), ("GET", "/mjpeg")] {
                let bare = try await harness.request(method, path, authorize: false)
                #expect(bare.status == 401 && bare.body.isEmpty, "\(method) \(path): \(bare.status) \(bare.text)")
                let wrong = try await harness.request(method, path, headers: ["Authorization": "Bearer \(token.dropLast())x"], authorize: false)
                #expect(wrong.status == 401 && wrong.body.isEmpty, "\(method) \(path) with a wrong token: \(wrong.status)")
                let wrongQuery = try await harness.request(method, path + "?token=nope", authorize: false)
                #expect(wrongQuery.status == 401, "\(method) \(path)?token=nope: \(wrongQuery.status)")
            }
            let header = try await harness.request("GET", "/api/state")
            #expect(header.status == 200)
            let query = try await harness.request("GET", "/api/state?token=\(token)", authorize: false)
            #expect(query.status == 200)
            let page = try await harness.request("GET", "/?token=\(token)", authorize: false)
            #expect(page.status == 200 && page.text.lowercased().contains("<html"))
        }
    }

    @Test("Generated tokens are 43 URL-safe characters and differ")
    func generated() {
        let tokens = (0..<20).map { _ in CameraServer.Configuration.generateToken() }
        #expect(Set(tokens).count == 20)
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }

    @Test("Listening beyond loopback without a token is refused, naming the address; loopback forms are loopback")
    func beyondLoopback() throws {
        for host in ["0.0.0.0", "::", "192.0.2.1"] {
            #expect(throws: CaptureError.self) { try CameraServer(configuration: .init(device: "virtual", host: host, port: 0)) }
            do {
                _ = try CameraServer(configuration: .init(device: "virtual", host: host, port: 0))
            } catch {
                #expect(error.code == .invalidSetting && error.message.contains(host) && error.message.contains("token"), "\(error)")
            }
        }
        for host in ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"] {
            #expect(CameraServer.Configuration(host: host).isLoopback, "\(host)")
        }
        #expect(!CameraServer.Configuration(host: "0.0.0.0").isLoopback)
        #expect(throws: CaptureError.self) { try CameraServer(configuration: .init(device: "virtual", port: 70_000)) }
        #expect(throws: CaptureError.self) { try CameraServer(configuration: .init(device: "no-such-camera", port: 0)) }
    }
}
