import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// A camera that goes away or is taken interrupts the session; it resumes by itself.
@Suite("Interruptions", .ownDevices, .serialized)
struct InterruptionTests {
    /// The session notifications posted, in order, with the thread they came on.
    final class Notes: Sendable {
        let names = Mutex<[String]>([])
        let reasons = Mutex<[InterruptionReason]>([])
        let onMainOrGStreamer = Atomic<Int>(0)

        /// Observes the session's and the device's notifications; remove the tokens when done.
        func observe(_ session: CaptureSession, device: CaptureDevice) -> [NSObjectProtocol] {
            let center = NotificationCenter.default
            let watched: [(Notification.Name, AnyObject?)] = [
                (CaptureSession.wasInterruptedNotification, session), (CaptureSession.interruptionEndedNotification, session),
                (CaptureSession.runtimeErrorNotification, session), (CaptureDevice.wasDisconnectedNotification, device),
                (CaptureDevice.wasConnectedNotification, device),
            ]
            return watched.map { name, object in
                center.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
                    guard let self else { return }
                    let thread = Thread.current.name ?? ""
                    if Thread.isMainThread || thread.contains("bus") || thread.contains(":src") { onMainOrGStreamer.add(1, ordering: .relaxed) }
                    names.withLock { $0.append(name.rawValue) }
                    if let reason = note.userInfo?[CaptureSession.interruptionReasonKey] as? Int, let reason = InterruptionReason(rawValue: reason) { reasons.withLock { $0.append(reason) } }
                }
            }
        }

        func wait(for name: Notification.Name, count: Int = 1) async throws {
            for _ in 0..<400 where names.withLock({ $0.filter { $0 == name.rawValue }.count }) < count {
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(names.withLock { $0.filter { $0 == name.rawValue }.count } >= count, "no \(name.rawValue): \(names.withLock { $0 })")
        }
    }

    @Test("an unplugged camera interrupts the session, frames stop; plugged in again, the session resumes with the same outputs")
    func unplugAndReplug() async throws {
        let frames = VideoDataOutput(), still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames, still])
        let device = test.input.device
        let notes = Notes()
        let observers = notes.observe(test.session, device: device)
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let times = Mutex<[Int64]>([])
        let stream = frames.sampleBuffers(bufferingNewest: 1000)
        let reader = Task { for await sample in stream { times.withLock { $0.append(sample.presentationTime.nanoseconds) } } }
        defer { reader.cancel() }
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning(); try? device.injectFault(nil) }
        #expect(await waitFor { times.withLock { $0.count } >= 3 }, "frames before the unplug")
        try device.injectFault(.unplugged)
        try await notes.wait(for: CaptureSession.wasInterruptedNotification)
        #expect(test.session.isInterrupted)
        #expect(test.session.isRunning, "an interruption keeps the session running, waiting for its device")
        #expect(!device.isConnected)
        #expect(notes.reasons.withLock { $0 } == [.videoDeviceNotAvailable])
        let stalled = times.withLock { $0.count }
        try await Task.sleep(for: .milliseconds(400))
        #expect(times.withLock { $0.count } <= stalled + 1, "no frames while unplugged")
        try device.injectFault(nil)
        try await notes.wait(for: CaptureSession.interruptionEndedNotification)
        #expect(!test.session.isInterrupted)
        #expect(device.isConnected)
        let resumed = times.withLock { $0.count }
        #expect(await waitFor { times.withLock { $0.count } >= resumed + 5 }, "frames flow again")
        let all = times.withLock { $0 }
        #expect(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "times never go back across the interruption")
        let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        #expect(sample.formatDescription.codec == .jpeg)
        #expect(notes.names.withLock { $0 } == [
            CaptureDevice.wasDisconnectedNotification.rawValue, CaptureSession.wasInterruptedNotification.rawValue,
            CaptureDevice.wasConnectedNotification.rawValue, CaptureSession.interruptionEndedNotification.rawValue,
        ])
        #expect(notes.onMainOrGStreamer.load(ordering: .relaxed) == 0, "notifications come from CaptureKit's queues")
    }

    @Test("a camera taken by another process interrupts the session (in use) until it is free")
    func busy() async throws {
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames])
        let device = test.input.device
        let notes = Notes()
        let observers = notes.observe(test.session, device: device)
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning(); try? device.injectFault(nil) }
        try device.injectFault(.inUseByAnotherClient)
        try await notes.wait(for: CaptureSession.wasInterruptedNotification)
        #expect(notes.reasons.withLock { $0 } == [.videoDeviceInUseByAnotherClient])
        #expect(device.isConnected)
        // Retries fail quietly: one was-interrupted, no runtime error, still interrupted.
        try await Task.sleep(for: .milliseconds(700))
        #expect(test.session.isInterrupted)
        #expect(notes.names.withLock { $0 } == [CaptureSession.wasInterruptedNotification.rawValue])
        try device.injectFault(nil)
        try await notes.wait(for: CaptureSession.interruptionEndedNotification)
        var iterator = frames.sampleBuffers(bufferingNewest: 5).makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test("fault injection is for virtual cameras only, and isConnected announces the change")
    func faultInjection() async throws {
        let device = CaptureDevice.find(virtual: .front)
        let changes = Mutex<[Bool]>([])
        let task = Task { for await value in device.values(of: \.isConnected) { changes.withLock { $0.append(value) } } }
        defer { task.cancel() }
        #expect(await waitFor { changes.withLock { $0 } == [true] }, "the current value first")
        try device.injectFault(.unplugged)
        #expect(await waitFor { changes.withLock { $0 }.last == false }, "\(changes.withLock { $0 })")
        try device.injectFault(nil)
        #expect(await waitFor { changes.withLock { $0 }.suffix(2) == [false, true] }, "\(changes.withLock { $0 })")
        #expect(device.injectedFault == nil)
        let real = CaptureDevice(uniqueID: "virtual:microphone", context: TestContext.current)
        #expect(throws: CaptureError.self) { try real?.injectFault(.unplugged) }
    }
}
