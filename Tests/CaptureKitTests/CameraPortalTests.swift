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

    @Test("a PipeWire daemon is known by its socket's far end and its start time: it runs until it ends, and device monitors whose PipeWire provider it served are left running rather than stopped (PipeWire 0.3's provider would free its registry twice)")
    func daemonGone() async throws {
        let session = try BackgroundProcess(PipeWireSession.script, ["--", "/bin/sh", "-c",
                                                                     "echo \"$XDG_RUNTIME_DIR\"; echo $$ > \"$XDG_RUNTIME_DIR/inner.pid\"; exec sleep 60"])
        var runtime = ""
        for _ in 0..<200 where runtime.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            runtime = session.output.split(separator: "\n").first.map(String.init) ?? ""
        }
        try #require(!runtime.isEmpty, "the PipeWire session did not start: \(session.output)")
        var ended = false
        defer { if !ended { PipeWireSession.end(runtime: runtime, session) } }
        let daemon = try #require(PipeWireDaemon.servingDefaultSocket(environment: ["XDG_RUNTIME_DIR": runtime]))
        #expect(daemon.isRunning)
        #expect(PipeWireDaemon.servingDefaultSocket(environment: ["XDG_RUNTIME_DIR": runtime, "PIPEWIRE_REMOTE": runtime + "/pipewire-0"]) == daemon)
        #expect(PipeWireDaemon.servingDefaultSocket(environment: ["XDG_RUNTIME_DIR": runtime, "PIPEWIRE_REMOTE": "no-such-socket"]) == nil)
        #expect(PipeWireDaemon.servingDefaultSocket(environment: [:]) == nil)
        // Through a connection of the process's own, as the portal hands one over.
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(connection) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in _ = (runtime + "/pipewire-0").utf8CString.withUnsafeBytes { path.copyMemory(from: $0) } }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(connected == 0, "connected to the daemon")
        #expect(PipeWireDaemon(serving: connection) == daemon)
        // GStreamer's PipeWire provider started on it may stop while it runs; not once it has gone.
        #expect(PipeWireKind.mayStop(providerStarted: true, daemon: daemon))
        PipeWireSession.end(runtime: runtime, session)
        ended = true
        #expect(!daemon.isRunning)
        #expect(!PipeWireKind.mayStop(providerStarted: true, daemon: daemon), "the provider is connected to a daemon that is gone")
        #expect(PipeWireKind.mayStop(providerStarted: false, daemon: daemon), "a provider not started has nothing to stop")
        #expect(PipeWireKind.mayStop(providerStarted: true, daemon: nil), "a provider that found no daemon never connected")
        // Monitors released while a kind says stopping is unsafe are left running, never freed.
        struct Unsafe: DeviceKind {
            func describe(_ found: MonitoredDevice) -> DeviceCandidate? { nil }
            var monitorsMayStop: Bool { false }
        }
        let monitors = [DeviceMonitor(deviceClass: "Video/Source"), DeviceMonitor(deviceClass: "Audio/Source")]
        DeviceRegistry.releaseMonitors(monitors.map { ($0, nil) }, kinds: [Unsafe()])
        #expect(monitors.allSatisfy { $0.isAbandoned })
        let safe = DeviceMonitor(deviceClass: "Video/Source")
        DeviceRegistry.releaseMonitors([(safe, nil)], kinds: [])
        #expect(!safe.isAbandoned)
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
