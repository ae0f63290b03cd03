import Dispatch
import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// What every callback may do: stop the session or remove outputs from inside it, without a
/// deadlock; and what no streaming thread does: wait for user code.
@Suite("Callback contract", .ownDevices, .serialized)
struct CallbackContractTests {
    /// Calls `action` once, from inside the first callback that reaches it, and tells when it returned.
    final class OneShot: Sendable {
        private let fired = Atomic<Bool>(false)
        private let returned = DispatchSemaphore(value: 0)
        let action: @Sendable () -> Void

        init(_ action: @escaping @Sendable () -> Void) { self.action = action }

        func fire() {
            guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
            action()
            returned.signal()
        }

        /// Whether the action ran and returned (a deadlock never returns: 10 s is the hang guard).
        func returnedInTime() async -> Bool {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.returned.wait(timeout: .now() + 10) == .success) }
            }
        }
    }

    final class VideoDelegate: VideoDataOutputSampleBufferDelegate {
        let shot: OneShot
        let delay: Double
        let times = Mutex<[Int64]>([])
        init(_ shot: OneShot, delay: Double = 0) { self.shot = shot; self.delay = delay }
        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            let count = times.withLock { $0.append(sampleBuffer.presentationTime.nanoseconds); return $0.count }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if count == 5 { shot.fire() }
        }
    }

    final class MetadataDelegate: MetadataOutputObjectsDelegate {
        let shot: OneShot
        init(_ shot: OneShot) { self.shot = shot }
        func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {
            if !metadataObjects.isEmpty { shot.fire() }
        }
    }

    final class AudioDelegate: AudioDataOutputSampleBufferDelegate {
        let shot: OneShot
        init(_ shot: OneShot) { self.shot = shot }
        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) { shot.fire() }
    }

    @Test("a slow delegate that keeps late frames gets every frame in order, stops the session from inside, and never holds up the camera")
    func slowKeptFramesStop() async throws {
        let slow = VideoDataOutput(), fast = VideoDataOutput()
        slow.alwaysDiscardsLateVideoFrames = false
        let test = try TestSession(preset: .cif352x288, outputs: [slow, fast])
        let session = test.session
        let shot = OneShot { session.stopRunning() }
        let delegate = VideoDelegate(shot, delay: 0.1)
        slow.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "slow"))
        let fastTimes = Mutex<[Int64]>([])
        let stream = fast.sampleBuffers(bufferingNewest: 1000)
        let reader = Task { for await sample in stream { fastTimes.withLock { $0.append(sample.presentationTime.nanoseconds) } } }
        defer { reader.cancel() }
        try await session.checked.startRunning()
        #expect(await shot.returnedInTime(), "stopRunning() from inside the delegate did not return")
        #expect(!session.isRunning)
        let slowTimes = delegate.times.withLock { $0 }
        #expect(slowTimes.count >= 5)
        #expect(zip(slowTimes, slowTimes.dropFirst()).allSatisfy { $0 < $1 })
        // Kept frames are consecutive: nothing dropped between the first five.
        #expect(zip(slowTimes.prefix(5), slowTimes.prefix(5).dropFirst()).allSatisfy { Double($1 - $0) < 1.5e9 / 30 })
        // Meanwhile the other output had the camera's full rate: ~0.5 s of frames while the slow
        // delegate took five.
        #expect(fastTimes.withLock { $0.count } >= 10)
    }

    @Test("stopRunning() from a still's completion handler returns")
    func stopFromStillHandler() async throws {
        let still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [still])
        let session = test.session
        let shot = OneShot { session.stopRunning() }
        try await session.checked.startRunning()
        try still.captureStillImage(from: try #require(still.connection(with: .video))) { _, _ in shot.fire() }
        #expect(await shot.returnedInTime())
        #expect(!session.isRunning)
    }

    @Test("stopRunning() from a metadata delegate returns")
    func stopFromMetadataDelegate() async throws {
        let metadata = MetadataOutput()
        let test = try TestSession(preset: .vga640x480, outputs: [metadata])
        try metadata.setMetadataObjectTypes([.qr])
        let session = test.session
        let shot = OneShot { session.stopRunning() }
        let delegate = MetadataDelegate(shot)
        metadata.setMetadataObjectsDelegate(delegate, queue: DispatchQueue(label: "metadata"))
        try await session.checked.startRunning()
        #expect(await shot.returnedInTime())
        #expect(!session.isRunning)
    }

    @Test("stopRunning() from an audio delegate returns")
    func stopFromAudioDelegate() async throws {
        let audio = AudioDataOutput()
        let session = CaptureSession()
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.virtualMicrophone))
        try session.checked.addOutput(audio)
        let shot = OneShot { session.stopRunning() }
        let delegate = AudioDelegate(shot)
        audio.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "audio"))
        try await session.checked.startRunning()
        #expect(await shot.returnedInTime())
        #expect(!session.isRunning)
    }

    @Test("an output removed from inside its own delegate stops getting frames; the session runs on")
    func removeFromDelegate() async throws {
        let frames = VideoDataOutput(), other = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames, other])
        let session = test.session
        let shot = OneShot { try? session.checked.removeOutput(frames) }
        let delegate = VideoDelegate(shot)
        frames.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "remove"))
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        #expect(await shot.returnedInTime())
        let count = delegate.times.withLock { $0.count }
        var iterator = other.sampleBuffers(bufferingNewest: 30).makeAsyncIterator()
        for _ in 0..<10 { _ = await iterator.next() }
        #expect(delegate.times.withLock { $0.count } <= count + 1)
        #expect(session.isRunning)
        #expect(session.outputs.count == 1)
    }
}

/// Still completion handlers: on the output's queue, in request order, whichever path.
@Suite("Still completion order", .ownDevices, .serialized)
struct StillCompletionOrderTests {
    static let queueKey = DispatchSpecificKey<String>()

    @Test("a flash still requested first completes first, though the plain still after it is ready sooner; both on the output's queue")
    func flashThenPlain() async throws {
        let still = StillImageOutput()
        still.callbackQueue.setSpecific(key: Self.queueKey, value: "still")
        let test = try TestSession(preset: .cif352x288, outputs: [still])
        let device = test.input.device
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        try device.lockForConfiguration()
        try device.setFlashMode(.on)
        let order = Mutex<[String]>([])
        let done = AsyncStream<Void>.makeStream()
        try still.captureStillImage(from: connection) { sample, _ in
            order.withLock { $0.append("flash \(sample != nil) \(DispatchQueue.getSpecific(key: Self.queueKey) ?? "elsewhere")") }
            done.continuation.yield()
        }
        try device.setFlashMode(.off)
        device.unlockForConfiguration()
        try still.captureStillImage(from: connection) { sample, _ in
            order.withLock { $0.append("plain \(sample != nil) \(DispatchQueue.getSpecific(key: Self.queueKey) ?? "elsewhere")") }
            done.continuation.yield()
        }
        // A request that throws gives up its place: later handlers are not held.
        #expect(throws: CaptureError.self) { try still.captureStillImage(from: CaptureConnection(inputPorts: [], output: still)) { _, _ in } }
        var iterator = done.stream.makeAsyncIterator()
        await iterator.next()
        await iterator.next()
        #expect(order.withLock { $0 } == ["flash true still", "plain true still"])
        let after = try await still.captureStillImage(from: connection)
        #expect(after.formatDescription.codec == .jpeg)
    }
}
