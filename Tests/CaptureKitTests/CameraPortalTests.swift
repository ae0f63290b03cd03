import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

/// The camera portal (xdg-desktop-portal's org.freedesktop.portal.Camera) through the public
/// authorization API, against `scripts/fake-camera-portal.py` on a private session bus started by
/// the test: the portal's answer becomes `authorizationStatus(for: .video)`, a grant hands over a
/// PipeWire connection that the PipeWire cameras' sources read through, and without a portal
/// nothing changes.
@Suite("Camera portal", .serialized)
struct CameraPortalTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/fake-camera-portal.py").path

    /// A private session bus and its address.
    static func startBus() async throws -> (BackgroundProcess, String) {
        let bus = try BackgroundProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        var address = ""
        for _ in 0..<100 where address.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            address = bus.output.split(separator: "\n").first.map(String.init) ?? ""
        }
        try #require(!address.isEmpty, "dbus-daemon printed no address: \(bus.output)")
        return (bus, address)
    }

    /// A private bus with the fake portal answering `answer` on it; the portal state reset around.
    static func withPortal(answering answer: Int, _ body: (String) async throws -> Void) async throws {
        let (bus, address) = try await startBus()
        defer { bus.kill() }
        let portal = try BackgroundProcess("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", "PORTAL_ANSWER=\(answer)", "/usr/bin/python3", script])
        defer { portal.kill() }
        for _ in 0..<100 where !portal.output.contains("ready") { try await Task.sleep(for: .milliseconds(50)) }
        try #require(portal.output.contains("ready"), "the fake portal did not start: \(portal.output)")
        Self.reset(override: address)
        defer { Self.reset(override: nil) }
        try await body(portal.output)
        print("fake portal: \(portal.output.split(separator: "\n").joined(separator: "; "))")
    }

    static func reset(override: String?) {
        CameraPortal.override.withLock { $0 = override }
        CameraPortal.answer.withLock { $0 = nil }
        CameraPortal.remote.withLock { fd in
            if let fd { close(fd) }
            fd = nil
        }
    }

    @Test("a granted request: notDetermined, then authorized, and PipeWire sources read through the connection the portal handed over")
    func granted() async throws {
        try await Self.withPortal(answering: 0) { _ async throws in
            #expect(try CaptureDevice.authorizationStatus(for: .video) == .notDetermined)
            #expect(try await CaptureDevice.requestAccess(for: .video))
            #expect(try CaptureDevice.authorizationStatus(for: .video) == .authorized)
            let fd = try #require(CameraPortal.remote.withLock { $0 })
            var info = stat()
            #expect(fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK, "the portal's PipeWire connection is a socket")
            let camera = try #require(PipeWireKind().describe(try DeviceKindTests.pipeWireDevice()))
            let device = camera.make()
            let source = device.backend.sourceElements(prefix: "s", device: device, format: device.activeFormat)[0]
            #expect(source.factory == "pipewiresrc" && source.properties.contains { $0.name == "fd" && $0.value == String(fd) })
            // The seed's callback form answers from the portal's first answer.
            let again = await withCheckedContinuation { continuation in CaptureDevice.requestAccess(for: .video) { continuation.resume(returning: $0) } }
            #expect(again)
        }
    }

    @Test("a refused request: notDetermined, then denied; no PipeWire connection")
    func refused() async throws {
        try await Self.withPortal(answering: 1) { _ async throws in
            #expect(try CaptureDevice.authorizationStatus(for: .video) == .notDetermined)
            #expect(try await !CaptureDevice.requestAccess(for: .video))
            #expect(try CaptureDevice.authorizationStatus(for: .video) == .denied)
            #expect(CameraPortal.remote.withLock { $0 } == nil)
        }
    }

    @Test("without a portal on the bus, video is answered from the device nodes at once, as before")
    func noPortal() async throws {
        let (bus, address) = try await Self.startBus()
        defer { bus.kill() }
        Self.reset(override: address)
        defer { Self.reset(override: nil) }
        #expect(CameraPortal.current() == nil)
        let status = try CaptureDevice.authorizationStatus(for: .video)
        #expect(status == (try Authorization.status(for: .video, nodes: Authorization.deviceNodes(for: .video))))
        #expect(try await CaptureDevice.requestAccess(for: .video) == (status == .authorized))
    }
}
