@testable import CaptureKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import ServiceLifecycle
import Testing
@testable import CaptureServer

/// A camera server running in this process on a free port, in a ServiceGroup as `capture
/// serve` runs it; ``stop()`` shuts it down gracefully and waits for ``CameraServer/run()``
/// to return.
final class ServerHarness: Sendable {
    let server: CameraServer
    let group: ServiceGroup
    let task: Task<Result<Void, any Error>, Never>
    let port: Int
    let recordings: URL
    let token: String?

    /// A server on 127.0.0.1, port 0, the virtual camera at VGA (fast), recordings in a
    /// fresh folder; its devices are `context`'s (by default a context of its own, so servers
    /// of tests running side by side never share a virtual camera).
    init(device: String = "virtual", token: String? = nil, recordings: URL? = nil, allowedOrigins: [String] = [],
         limits: CameraServer.Limits = .init(), segmentDuration: Double? = nil, context: CaptureContext = CaptureContext()) async throws {
        let folder = recordings ?? FileManager.default.temporaryDirectory.appendingPathComponent("capture-server-\(UUID().uuidString)")
        self.recordings = folder
        self.token = token
        server = try CameraServer(configuration: .init(device: device, host: "127.0.0.1", port: 0, token: token,
                                                       recordingsDirectory: folder, preset: .vga640x480,
                                                       allowedOrigins: allowedOrigins, limits: limits, segmentDuration: segmentDuration),
                                  context: context)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger))
        let group = self.group
        task = Task {
            do {
                try await group.run()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        port = try await server.waitUntilListening()
    }

    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Graceful shutdown; the result of `run()`.
    @discardableResult
    func stop() async -> Result<Void, any Error> {
        await group.triggerGracefulShutdown()
        return await task.value
    }

    /// One HTTP response: status, headers (lowercased names), body.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        var json: Any? { try? JSONSerialization.jsonObject(with: body) }

        var object: [String: Any]? { json as? [String: Any] }

        /// The `{"error": {"code", "message"}}` body's code and message.
        var error: (code: String, message: String)? {
            guard let error = object?["error"] as? [String: Any], let code = error["code"] as? String,
                  let message = error["message"] as? String, object?.count == 1 else { return nil }
            return (code, message)
        }
    }

    /// A request to `path` (with its query), the token in the header when the harness has one
    /// and `authorize`.
    func request(_ method: String, _ path: String, json: String? = nil, body: Data? = nil, contentType: String? = nil,
                 headers: [String: String] = [:], authorize: Bool = true) async throws -> Reply {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let token, authorize { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue(contentType ?? "application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            request.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let fields = Dictionary(http.allHeaderFields.map { ("\($0.key)".lowercased(), "\($0.value)") }, uniquingKeysWith: { $1 })
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// The request line `target` sent as it is (no client tidies `..` or `%2e` away), on a plain
    /// socket, with `host` as its Host and `body` after the head; the response's status and
    /// body. With `close` false the connection is kept open (a WebSocket upgrade's), and what
    /// came within a second is read.
    func raw(_ target: String, method: String = "GET", host: String? = nil, headers: [String] = [], body: String = "",
             close keepsNothing: Bool = true) throws -> (status: Int, body: String) {
        let fd = try send(target, method: method, host: host, headers: headers, body: body, close: keepsNothing)
        defer { close(fd) }
        let reply = receive(fd, waiting: keepsNothing ? 10 : 1)
        return (reply.status, reply.text)
    }

    /// Opens a connection and writes the request `raw` describes, without reading the reply;
    /// returns the socket, for `receive`. Requests sent this way reach the server in the order
    /// they were written, which separate `request` calls do not promise.
    func send(_ target: String, method: String = "GET", host: String? = nil, headers: [String] = [], body: String = "",
              close keepsNothing: Bool = true) throws -> Int32 {
        let fd = try connectLoopback(port: port)
        let auth = token.map { ["Authorization: Bearer \($0)"] } ?? []
        let head = ["\(method) \(target) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")"] + (keepsNothing ? ["Connection: close"] : [])
        let text = (head + auth + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), 0) }
        return fd
    }

    /// The reply on `fd` (read until the server closes, or nothing came for `seconds`): its
    /// status and body.
    func receive(_ fd: Int32, waiting seconds: Int = 10) -> Reply {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        let whole = String(decoding: response, as: UTF8.self)
        let statusLine = whole.split(separator: "\r\n").first ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = whole.range(of: "\r\n\r\n").map { String(whole[$0.upperBound...]) } ?? ""
        return Reply(status: status, headers: [:], body: Data(body.utf8))
    }
}

/// Polls `condition` every 100 ms for up to `seconds`.
func eventually(seconds: Double, _ condition: () async throws -> Bool) async rethrows {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try? await Task.sleep(for: .milliseconds(100))
    }
}

/// Runs `body` with a server (``ServerHarness/init(device:token:recordings:)``'s arguments),
/// and stops the server whatever `body` does.
func withServer(device: String = "virtual", token: String? = nil, recordings: URL? = nil, allowedOrigins: [String] = [],
                limits: CameraServer.Limits = .init(), segmentDuration: Double? = nil, _ body: (ServerHarness) async throws -> Void) async throws {
    let harness = try await ServerHarness(device: device, token: token, recordings: recordings, allowedOrigins: allowedOrigins, limits: limits,
                                          segmentDuration: segmentDuration)
    do {
        try await body(harness)
    } catch {
        await harness.stop()
        throw error
    }
    let result = await harness.stop()
    #expect((try? result.get()) != nil, "the server's run() ended with \(result)")
}

/// A TCP socket connected to 127.0.0.1:`port`.
func connectLoopback(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw POSIXError(.ECONNREFUSED)
    }
    return fd
}

/// A TCP port free on 127.0.0.1 now (bound, read, closed).
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs a tool (ffprobe, ffmpeg) to its end; its output and errors together.
func runTool(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
