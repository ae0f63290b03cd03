import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

/// The camera portal (xdg-desktop-portal's org.freedesktop.portal.Camera) through the public
/// authorization API, against `scripts/fake-camera-portal.py` on a private session bus started by
/// the test: the portal's answer becomes `authorizationStatus(for: .video)`, a grant hands over a
/// PipeWire connection that the PipeWire cameras' sources read through, and without a portal
/// nothing changes.
@Suite("Camera portal", .ownDevices, .serialized)
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

    /// A private bus with the fake portal answering `answer` on it (its PipeWire connection goes
    /// to `pipeWireSocket` when given); the portal state reset around.
    static func withPortal(answering answer: Int, pipeWireSocket: String? = nil, _ body: (String) async throws -> Void) async throws {
        let (bus, address) = try await startBus()
        defer { bus.kill() }
        let socket = pipeWireSocket.map { ["PIPEWIRE_SOCKET=\($0)"] } ?? []
        let portal = try BackgroundProcess("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", "PORTAL_ANSWER=\(answer)"] + socket
                                               + ["/usr/bin/python3", script])
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
        let hadRemote = CameraPortal.remote.withLock { fd in
            defer { fd = nil }
            if let fd { close(fd) }
            return fd != nil
        }
        // The PipeWire provider connects as before the grant; what it found through the
        // portal's connection is gone.
        if hadRemote { CaptureContext.shared.registry.restartMonitoring() }
    }

    @Test("sandboxed (no PipeWire socket of its own), a granted process lists the PipeWire camera through the portal's connection and reads frames from it")
    func sandboxedListing() async throws {
        // A PipeWire daemon with a camera node that only the portal leads to: its socket is in a
        // runtime folder of its own, not this process's.
        let session = try BackgroundProcess(PipeWireSession.script, ["--", "/bin/sh", "-c",
                                                                     "echo \"$XDG_RUNTIME_DIR\"; echo $$ > \"$XDG_RUNTIME_DIR/inner.pid\"; exec sleep 60"])
        var runtime = ""
        for _ in 0..<200 where runtime.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            runtime = session.output.split(separator: "\n").first.map(String.init) ?? ""
        }
        try #require(!runtime.isEmpty, "the PipeWire session did not start: \(session.output)")
        defer { PipeWireSession.end(runtime: runtime, session) }
        let camera = "pipewire:capturekit-test-camera"
        #expect(!CaptureDevice.devices(for: .video).contains { $0.uniqueID == camera }, "reachable before the grant")
        try await Self.withPortal(answering: 0, pipeWireSocket: runtime + "/pipewire-0") { _ async throws in
            #expect(await CaptureDevice.requestAccess(for: .video))
            var device: CaptureDevice?
            for _ in 0..<100 where device == nil {
                device = CaptureDevice.devices(for: .video).first { $0.uniqueID == camera }
                if device == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let found = try #require(device, "not listed through the portal's connection: \(CaptureDevice.devices(for: .video).map(\.uniqueID))")
            #expect(found.route == "pipewire")
            let session = CaptureSession()
            try session.checked.addInput(CaptureDeviceInput(device: found))
            let output = VideoDataOutput()
            let frames = FrameCounter()
            output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "portal.frames"))
            try session.checked.addOutput(output)
            try await session.checked.startRunning()
            defer { session.stopRunning() }
            #expect(await frames.waitFor(5, seconds: 10), "\(frames.count) frames through the portal's connection")
        }
        #expect(!CaptureDevice.devices(for: .video).contains { $0.uniqueID == camera }, "still listed once the portal's connection closed")
    }

    @Test("a granted request: notDetermined, then authorized, and PipeWire sources read through the connection the portal handed over")
    func granted() async throws {
        try await Self.withPortal(answering: 0) { _ async throws in
            #expect(CaptureDevice.authorizationStatus(for: .video) == .notDetermined)
            #expect(await CaptureDevice.requestAccess(for: .video))
            #expect(CaptureDevice.authorizationStatus(for: .video) == .authorized)
            let fd = try #require(CameraPortal.remote.withLock { $0 })
            var info = stat()
            #expect(fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK, "the portal's PipeWire connection is a socket")
            let camera = try #require(PipeWireKind().describe(try DeviceKindTests.pipeWireDevice()))
            let device = camera.make()
            let source = device.backend.sourceElements(prefix: "s", device: device, format: device.activeFormat)[0]
            #expect(source.factory == "pipewiresrc" && source.properties.contains { $0.name == "fd" && $0.value == .int(Int(fd)) })
            // The seed's callback form answers from the portal's first answer.
            let again = await withCheckedContinuation { continuation in CaptureDevice.requestAccess(for: .video) { continuation.resume(returning: $0) } }
            #expect(again)
        }
    }

    @Test("a connection whose far end closed is not handed to PipeWire's device provider, which would wait on it with no deadline")
    func deadConnection() throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]) }
        #expect(PipeWireKind.isOpen(ends[0]))
        close(ends[1])
        #expect(!PipeWireKind.isOpen(ends[0]))
        #expect(!PipeWireKind.isOpen(-1))
    }

    @Test("a refused request: notDetermined, then denied; no PipeWire connection")
    func refused() async throws {
        try await Self.withPortal(answering: 1) { _ async throws in
            #expect(CaptureDevice.authorizationStatus(for: .video) == .notDetermined)
            #expect(await !CaptureDevice.requestAccess(for: .video))
            #expect(CaptureDevice.authorizationStatus(for: .video) == .denied)
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
        let status = CaptureDevice.authorizationStatus(for: .video)
        #expect(status == (try Authorization.status(for: .video, nodes: Authorization.deviceNodes(for: .video))))
        #expect(await CaptureDevice.requestAccess(for: .video) == (status == .authorized))
    }
}
