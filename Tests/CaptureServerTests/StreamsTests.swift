@testable import CaptureKit
import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import Testing
@testable import CaptureServer

/// `/ws/metadata` and `/mjpeg`: long-lived responses, shared work, viewers that vanish.
@Suite("Camera server: metadata WebSocket and MJPEG", .serialized)
struct StreamsTests {
    /// Up to `count` text messages from the WebSocket at `path`, within `seconds`.
    static func messages(_ harness: ServerHarness, _ path: String, count: Int, seconds: Double = 20) async throws -> [String] {
        let received = Collected()
        let logger = { () -> Logger in
            var logger = Logger(label: "test.ws")
            logger.logLevel = .critical
            return logger
        }()
        let url = "ws://127.0.0.1:\(harness.port)\(path)"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        if received.texts.withLock({ $0.append(text); return $0.count }) >= count { break }
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
            group.addTask { try await Task.sleep(for: .seconds(seconds)) }
            _ = try await group.next()
            group.cancelAll()
        }
        return received.texts.withLock { $0 }
    }

    /// What a WebSocket received.
    final class Collected: Sendable {
        let texts = Mutex<[String]>([])
    }

    @Test("/ws/metadata sends the QR code in device and in portrait view coordinates; the metadata output is in the session only while someone listens")
    func metadata() async throws {
        try await withServer { harness in
            let camera = harness.server.camera
            #expect(!camera.session.outputs.contains { $0 is MetadataOutput })
            // Exposure and focus settled where the code is readable.
            _ = await camera.device.waitForAutoModesToSettle(timeout: .seconds(5))
            let texts = try await Self.messages(harness, "/ws/metadata?width=480&height=640&gravity=resizeAspect&orientation=portrait&mirrored=false", count: 5)
            #expect(texts.count == 5, "\(texts); outputs \(camera.session.outputs.map { type(of: $0) }), subscribers \(camera.metadata.count), \(camera.metadata.diagnostics), pipeline \(camera.session.pipelineDescription)")
            var checked = 0
            for text in texts {
                let batch = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
                let objects = try #require(batch["objects"] as? [[String: Any]])
                guard let qr = objects.first(where: { $0["type"] as? String == "qr" }) else { continue }
                #expect(qr["value"] as? String == VirtualScene.qrText)
                let device = try #require((qr["device"] as? [String: Any])?["corners"] as? [[Double]])
                let view = try #require((qr["view"] as? [String: Any])?["corners"] as? [[Double]], "no view coordinates: \(text)")
                #expect(device.count == 4 && view.count == 4)
                // Portrait: the 640x480 picture turned a quarter clockwise fills the 480x640 view.
                for (d, v) in zip(device, view) {
                    #expect(abs(v[0] - (1 - d[1]) * 480) < 2 && abs(v[1] - d[0] * 640) < 2, "device \(d) → view \(v)")
                }
                checked += 1
            }
            #expect(checked >= 3, "batches with the QR code: \(checked) of \(texts.count)")
            await eventually(seconds: 5) { !camera.session.outputs.contains { $0 is MetadataOutput } }
            #expect(!camera.session.outputs.contains { $0 is MetadataOutput }, "the metadata output left with its last subscriber")
        }
    }

    @Test("/mjpeg: multipart JPEG frames; three viewers share one JPEG encode; one that vanishes costs the others nothing")
    func mjpeg() async throws {
        try await withServer { harness in
            let camera = harness.server.camera
            let encodersBefore = camera.session.pipelineDescription.components(separatedBy: "jpegenc").count
            let viewers = try (0..<3).map { _ in try RawStream(port: harness.port, path: "/mjpeg") }
            for viewer in viewers { #expect(viewer.waitForParts(2, seconds: 15), "frames for each viewer: \(viewer.header)") }
            #expect(viewers[0].header.lowercased().contains("content-type: multipart/x-mixed-replace; boundary="), "\(viewers[0].header)")
            #expect(viewers[0].firstJPEG?.starts(with: [0xFF, 0xD8]) == true)
            let encodersDuring = camera.session.pipelineDescription.components(separatedBy: "jpegenc").count
            #expect(encodersDuring == encodersBefore + 1, "one JPEG encode for three viewers: \(camera.session.pipelineDescription)")
            #expect(camera.frames.count == 3)
            viewers[0].close()
            let counts = viewers[1...].map(\.parts)
            for (viewer, count) in zip(viewers[1...], counts) { #expect(viewer.waitForParts(count + 10, seconds: 10), "the others go on") }
            await eventually(seconds: 5) { camera.frames.count == 2 }
            #expect(camera.frames.count == 2)
            for viewer in viewers[1...] { viewer.close() }
            await eventually(seconds: 5) { camera.frames.count == 0 && !camera.session.connections.contains { $0.output is VideoPreview } }
            #expect(!camera.session.connections.contains { $0.output is VideoPreview }, "the preview left with its last viewer")
        }
    }
}

/// A GET whose response never ends (MJPEG), read on a thread of its own: the header, and how
/// many multipart parts have come.
final class RawStream: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var data = Data()
    private var closed = false
    private var thread: Thread?

    init(port: Int, path: String) throws {
        fd = try connectLoopback(port: port)
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        let socketFD = fd
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socketFD, &buffer, buffer.count, 0)
                guard count > 0, let self else { break }
                self.lock.lock()
                self.data.append(contentsOf: buffer[0..<count])
                let closed = self.closed
                self.lock.unlock()
                if closed { break }
            }
        }
        self.thread = thread
        thread.start()
    }

    deinit { close() }

    func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        if !wasClosed { shutdown(fd, Int32(SHUT_RDWR)); Glibc.close(fd) }
    }

    var header: String {
        lock.lock()
        defer { lock.unlock() }
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return "" }
        return String(decoding: data[..<end.lowerBound], as: UTF8.self)
    }

    /// Multipart parts begun so far.
    var parts: Int {
        lock.lock()
        defer { lock.unlock() }
        return data.ranges(of: Data("--\(ServerRoutes.boundary)\r\n".utf8)).count
    }

    /// The first part's JPEG.
    var firstJPEG: Data? {
        lock.lock()
        defer { lock.unlock() }
        guard let part = data.range(of: Data("--\(ServerRoutes.boundary)\r\n".utf8)),
              let start = data[part.upperBound...].range(of: Data("\r\n\r\n".utf8)) else { return nil }
        return data[start.upperBound...].prefix(4)
    }

    func waitForParts(_ count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while parts < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return parts >= count
    }
}
