import Foundation
import Synchronization
import Testing
@testable import CaptureKit

@Suite("CaptureSession", .ownDevices, .serialized)
struct CaptureSessionTests {
    @Test("the virtual cameras are always listed, back first, and are the default")
    func virtualDevices() throws {
        let devices = CaptureDevice.devices(for: .video)
        #expect(devices.contains { $0.uniqueID == "virtual:back" && $0.position == .back })
        #expect(devices.contains { $0.uniqueID == "virtual:front" && $0.position == .front })
        let fallback = try #require(CaptureDevice.default(for: .video))
        #expect(fallback == devices[0])
        #expect(CaptureDevice(uniqueID: "virtual:front")?.localizedName == "Virtual Camera (front)")
        #expect(CaptureDevice(uniqueID: "nope") == nil)
        let sizes = CaptureDevice.find(virtual: .back).formats.map { "\($0.width)x\($0.height)" }
        #expect(sizes.contains("640x480") && sizes.contains("1280x720") && sizes.contains("1920x1080"))
        #expect(CaptureDevice.devices(for: .audio).last?.uniqueID == "virtual:microphone", "the virtual microphone is always listed")
        #expect(!devices.contains { $0.hasMediaType(.audio) })
    }

    @Test("an output the running pipeline cannot take stops the session: the checked call throws, the plain one posts only the runtime error")
    func failedRunningChangeReportsOnce() async throws {
        let port = freePort()
        let first = try StreamOutput(target: StreamTarget(parsing: "rtsp://127.0.0.1:\(port)/cam"))
        let test = try TestSession(outputs: [VideoDataOutput(), first])
        let runtimeErrors = Mutex<[CaptureError]>([]), refusals = Mutex(0)
        let center = NotificationCenter.default
        let observers = [
            center.addObserver(forName: CaptureSession.runtimeErrorNotification, object: test.session, queue: nil) { note in
                if let error = note.userInfo?[CaptureSession.errorKey] as? CaptureError { runtimeErrors.withLock { $0.append(error) } }
            },
            center.addObserver(forName: .CaptureConfigurationError, object: test.session, queue: nil) { _ in refusals.withLock { $0 += 1 } },
        ]
        defer { observers.forEach(center.removeObserver) }
        try await test.session.checked.startRunning()
        // A second server on the same port: the change is made, the pipeline cannot follow.
        let second = try StreamOutput(target: StreamTarget(parsing: "rtsp://127.0.0.1:\(port)/other"))
        let error = try #require(throws: CaptureError.self) { try test.session.checked.addOutput(second) }
        #expect(error.code == .streamFailed && error.message.contains("\(port)"), "\(error)")
        #expect(!test.session.isRunning)
        #expect(test.session.outputs.contains { $0 === second })
        test.session.removeOutput(second)
        try await test.session.checked.startRunning()
        let third = try StreamOutput(target: StreamTarget(parsing: "rtsp://127.0.0.1:\(port)/third"))
        test.session.addOutput(third)
        #expect(!test.session.isRunning)
        _ = await waitFor { runtimeErrors.withLock { $0.count } >= 2 }
        #expect(runtimeErrors.withLock { $0.map(\.code) } == [.streamFailed, .streamFailed])
        #expect(refusals.withLock { $0 } == 0, "a change that was made is not reported as refused")
    }

    @Test("two threads adding one input or one output: exactly one succeeds, the other is told it is already there")
    func concurrentAdds() throws {
        let device = CaptureDevice.find(virtual: .back)
        for _ in 0..<200 {
            let session = CaptureSession()
            let input = try CaptureDeviceInput(device: device), output = VideoDataOutput()
            let refused = Mutex<[CaptureError.Code]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                do {
                    if index < 2 { try session.checked.addInput(input) } else { try session.checked.addOutput(output) }
                } catch {
                    refused.withLock { $0.append((error as? CaptureError)?.code ?? .pipelineFailed) }
                }
            }
            #expect(session.inputs.count == 1 && session.outputs.count == 1 && session.connections.count == 1)
            #expect(refused.withLock { $0.sorted { $0.rawValue < $1.rawValue } } == [.inputAlreadyAdded, .outputAlreadyAdded].sorted { $0.rawValue < $1.rawValue })
        }
    }

    @Test("authorization answers video and audio, and rejects other media types")
    func authorization() throws {
        #expect(CaptureDevice.authorizationStatus(for: .video) == .authorized)
        #expect(throws: CaptureError.unsupportedMediaType(.text)) { try CaptureDevice.Checked.authorizationStatus(for: .text) }
        #expect(try Authorization.status(for: .video, nodes: ["/dev/video0"], sandboxed: false, canOpen: { _ in false }) == .denied)
        #expect(try Authorization.status(for: .video, nodes: [], sandboxed: true) == .notDetermined)
    }

    @Test("presets choose the device format, and unsupported presets throw naming the supported ones")
    func presets() throws {
        let session = CaptureSession()
        let device = CaptureDevice.find(virtual: .back)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        try session.setSessionPreset(.hd1280x720)
        #expect(device.activeFormat.width == 1280)
        try session.setSessionPreset(.medium)
        #expect(device.activeFormat.width == 640)
        try session.setSessionPreset(.photo)
        #expect(device.activeFormat.width == 1920)
        #expect(!session.canSetSessionPreset(.hd4K3840x2160))
        do {
            try session.setSessionPreset(.hd4K3840x2160)
            Issue.record("expected an error")
        } catch {
            guard error.code == .unsupportedPreset else { throw error }
            #expect(error.value == SessionPreset.hd4K3840x2160.rawValue)
            #expect(error.validValues.contains(SessionPreset.vga640x480.rawValue)
                    && !error.validValues.contains(SessionPreset.hd4K3840x2160.rawValue))
        }
        #expect(session.sessionPreset == .photo)
    }

    @Test("misuse throws typed errors that name the problem")
    func misuse() throws {
        let session = CaptureSession()
        let device = CaptureDevice.find(virtual: .back)
        let input = try CaptureDeviceInput(device: device)
        try session.checked.addInput(input)
        #expect(!session.canAddInput(input))
        #expect(throws: CaptureError.inputAlreadyAdded(device: "virtual:back")) { try session.checked.addInput(input) }
        #expect(throws: CaptureError.inputAlreadyAdded(device: "virtual:back")) {
            try session.checked.addInput(CaptureDeviceInput(device: device))
        }
        let output = StillImageOutput()
        try session.checked.addOutput(output)
        #expect(throws: CaptureError.outputAlreadyAdded(output: "still")) { try session.checked.addOutput(output) }
        // Capturing before the session runs: the connection is not active.
        let connection = try #require(output.connection(with: .video))
        #expect(!connection.isActive)
        #expect(throws: CaptureError.self) { try output.captureStillImage(from: connection) { _, _ in } }
        #expect(throws: CaptureError.invalidSetting(name: "JPEG quality", value: "1.5", valid: "0.0...1.0")) {
            try output.setOutputSettings(.jpeg(quality: 1.5))
        }
        #expect(throws: CaptureError.self) { try output.setOutputSettings(.uncompressed(.yuy2)) }
        #expect(throws: CaptureError.self) { try VideoDataOutput().setVideoSettings(.init(pixelFormat: .bgra, width: 320)) }
        #expect(throws: CaptureError.unbalancedConfiguration) { try session.checked.commitConfiguration() }
        #expect(throws: CaptureError.self) { try session.checked.removeInput(try CaptureDeviceInput(device: .find(virtual: .front))) }
        #expect(throws: CaptureError.self) { try CaptureDevice.find("no-such-camera") }
    }

    @Test("an output with no input cannot run")
    func outputWithoutInput() throws {
        let session = CaptureSession()
        try session.checked.addOutput(VideoDataOutput())
        #expect(throws: CaptureError.noCompatibleInput(output: "videoData")) { try session.checked.startRunning() }
        #expect(!session.isRunning)
    }

    @Test("a disabled connection is inactive and refuses stills")
    func disabledConnection() async throws {
        let output = StillImageOutput()
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [output, frames])
        let connection = try #require(output.connection(with: .video))
        connection.isEnabled = false
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(!connection.isActive)
        #expect(frames.connection(with: .video)?.isActive == true)
        #expect(throws: CaptureError.inactiveConnection("\(connection)")) { try output.captureStillImage(from: connection) { _, _ in } }
    }

    @Test("start and stop post notifications and update isRunning")
    func notifications() throws {
        let test = try TestSession(preset: .cif352x288, outputs: [VideoDataOutput()])
        let names = Mutex<[Notification.Name]>([])
        let observers = [CaptureSession.didStartRunningNotification, CaptureSession.didStopRunningNotification].map { name in
            NotificationCenter.default.addObserver(forName: name, object: test.session, queue: nil) { note in
                names.withLock { $0.append(note.name) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try test.session.checked.startRunning()
        #expect(test.session.isRunning)
        test.session.stopRunning()
        #expect(!test.session.isRunning)
        #expect(names.withLock { $0 } == [CaptureSession.didStartRunningNotification, CaptureSession.didStopRunningNotification])
    }

    @Test("a runtime error is posted with the element and GStreamer's message")
    func runtimeError() async throws {
        let test = try TestSession(preset: .cif352x288, outputs: [VideoDataOutput()])
        let errors = AsyncStream<CaptureError>.makeStream()
        let observer = NotificationCenter.default.addObserver(forName: CaptureSession.runtimeErrorNotification, object: test.session, queue: nil) { note in
            if let error = note.userInfo?[CaptureSession.errorKey] as? CaptureError { errors.continuation.yield(error) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await test.session.checked.startRunning()
        let source = try test.session.runtime!.pipeline.element(named: "input0_src")
        source.postError(domain: .resource, message: "device unplugged")
        var iterator = errors.stream.makeAsyncIterator()
        let error = try #require(await iterator.next())
        #expect(error == .pipelineFailed(element: "input0_src", message: "device unplugged"))
        #expect(await waitFor { !test.session.isRunning })
    }

    @Test("an observer of runtime errors may restart the session from the notification")
    func restartFromErrorObserver() async throws {
        let test = try TestSession(preset: .cif352x288, outputs: [VideoDataOutput()])
        let restarted = AsyncStream<Bool>.makeStream()
        let session = test.session
        let observer = NotificationCenter.default.addObserver(forName: CaptureSession.runtimeErrorNotification, object: session, queue: nil) { _ in
            session.stopRunning()
            do { try session.checked.startRunning() } catch { Issue.record("restart failed: \(error)") }
            restarted.continuation.yield(session.isRunning)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await session.checked.startRunning()
        try session.runtime!.pipeline.element(named: "input0_src").postError(domain: .stream, message: "glitch")
        var iterator = restarted.stream.makeAsyncIterator()
        #expect(await iterator.next() == true)
        // Nothing from the failed pipeline stops its successor later.
        try await Task.sleep(for: .milliseconds(200))
        #expect(session.isRunning)
        await session.checked.stopRunning()
    }

    @Test("switching cameras inside begin/commit on a running session keeps frames coming from the new device")
    func switchInput() async throws {
        let output = VideoDataOutput()
        let delegate = RecordingDelegate()
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "switch"))
        let test = try TestSession(preset: .cif352x288, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(await waitFor { delegate.frames.withLock { $0.count } >= 3 }, "frames from the back camera first")
        test.session.beginConfiguration()
        try test.session.checked.removeInput(test.input)
        let front = try CaptureDeviceInput(device: .find(virtual: .front))
        try test.session.checked.addInput(front)
        test.session.beginConfiguration()
        try test.session.checked.commitConfiguration()
        #expect(test.session.pipelineDescription.contains("input0_src"))
        try test.session.checked.commitConfiguration()
        #expect(test.session.isRunning)
        let before = delegate.frames.withLock { $0.count }
        #expect(await waitFor { delegate.frames.withLock { $0.count } - before >= 8 }, "frames after the switch: \(delegate.frames.withLock { $0.count } - before)")
        #expect(delegate.devices.withLock { $0 } == ["virtual:back", "virtual:front"])
        #expect(output.connection(with: .video)?.inputPorts.first?.device.uniqueID == "virtual:front")
        #expect(output.connection(with: .video)?.isActive == true)
    }
}
