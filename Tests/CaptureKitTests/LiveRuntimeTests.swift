import Foundation
import Synchronization
import Testing
@_spi(Plan) @testable import CaptureKit

/// The running pipeline changes in place: outputs added and removed, cameras switched, a
/// branch failing, while a VideoDataOutput keeps receiving every frame.
@Suite("Live runtime", .ownDevices, .serialized)
struct LiveRuntimeTests {
    /// Every frame's presentation time and device, as a VideoDataOutput stream delivers them.
    final class FrameLog: Sendable {
        let frames = Mutex<[(time: Int64, device: String)]>([])
        private let task = Mutex<Task<Void, Never>?>(nil)

        deinit { task.withLock { $0?.cancel() } }

        init(_ output: VideoDataOutput) {
            let stream = output.sampleBuffers(bufferingNewest: 4096)
            let consumer = Task { [weak self] in
                for await sample in stream {
                    self?.frames.withLock { $0.append((sample.presentationTime.nanoseconds, sample.attachments.deviceUniqueID)) }
                }
            }
            task.withLock { $0 = consumer }
        }

        var times: [Int64] { frames.withLock { $0.map(\.time) } }
        var count: Int { frames.withLock { $0.count } }

        /// The largest step between consecutive presentation times, in frame intervals, and
        /// whether any step went backwards or stood still.
        func steps(interval: Double) -> (largest: Double, backwards: Int) {
            let times = self.times
            let steps = zip(times, times.dropFirst()).map { Double($1 - $0) }
            return ((steps.max() ?? 0) / interval, steps.filter { $0 <= 0 }.count)
        }

        func waitForFrames(_ count: Int) async throws {
            for _ in 0..<300 where self.count < count { try await Task.sleep(for: .milliseconds(10)) }
            try #require(self.count >= count)
        }
    }

    static let interval = 1e9 / 30

    @Test("adding and removing still and metadata outputs never interrupts a running VideoDataOutput, and times never go back")
    func addRemoveContinuity() async throws {
        let frames = VideoDataOutput()
        let log = FrameLog(frames)
        let test = try TestSession(preset: .vga640x480, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(5)
        let pipeline = try #require(test.session.runtime?.pipeline)
        for cycle in 0..<6 {
            let still = StillImageOutput(), metadata = MetadataOutput()
            test.session.beginConfiguration()
            try test.session.checked.addOutput(still)
            try test.session.checked.addOutput(metadata)
            try test.session.checked.commitConfiguration()
            #expect(test.session.runtime?.pipeline === pipeline, "the pipeline is changed in place, not rebuilt")
            if cycle % 2 == 0 {
                let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
                #expect(sample.formatDescription.width == 640)
            }
            try await Task.sleep(for: .milliseconds(60))
            test.session.beginConfiguration()
            try test.session.checked.removeOutput(still)
            try test.session.checked.removeOutput(metadata)
            try test.session.checked.commitConfiguration()
            try await Task.sleep(for: .milliseconds(60))
        }
        let count = log.count
        try await log.waitForFrames(count + 5)
        let (largest, backwards) = log.steps(interval: Self.interval)
        #expect(backwards == 0)
        #expect(largest <= 1.5, "largest presentation-time step: \(largest) frame intervals")
        #expect(pipeline.currentState == .playing)
    }

    @Test("a camera switch swaps only the source: frames continue from the new camera within 2 frame intervals")
    func cameraSwitchContinuity() async throws {
        let frames = VideoDataOutput()
        let log = FrameLog(frames)
        let still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames, still])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(5)
        var current = test.input
        for position in [CaptureDevice.Position.front, .back, .front] {
            let next = try CaptureDeviceInput(device: .find(virtual: position))
            test.session.beginConfiguration()
            try test.session.checked.removeInput(current)
            try test.session.checked.addInput(next)
            try test.session.checked.commitConfiguration()
            current = next
            let count = log.count
            try await log.waitForFrames(count + 6)
            #expect(log.frames.withLock { $0.last?.device } == next.device.uniqueID)
        }
        // The still output's branch stayed and takes pictures from the camera now in use.
        let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        #expect(sample.attachments.deviceUniqueID == "virtual:front")
        let (largest, backwards) = log.steps(interval: Self.interval)
        #expect(backwards == 0)
        #expect(largest <= 2, "largest presentation-time step across switches: \(largest) frame intervals")
    }

    @Test("a branch that fails is removed and reported with its output; the other outputs keep running")
    func branchFailure() async throws {
        let frames = VideoDataOutput(), still = StillImageOutput()
        let log = FrameLog(frames)
        let test = try TestSession(preset: .cif352x288, outputs: [frames, still])
        let reports = AsyncStream<(CaptureError, (any CaptureOutput)?)>.makeStream()
        let observer = NotificationCenter.default.addObserver(forName: CaptureSession.runtimeErrorNotification, object: test.session, queue: nil) { note in
            if let error = note.userInfo?[CaptureSession.errorKey] as? CaptureError {
                reports.continuation.yield((error, note.userInfo?[CaptureSession.outputKey] as? any CaptureOutput))
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(3)
        try test.session.runtime!.pipeline.element(named: "output1_encode").postError(domain: .library, message: "encoder broke")
        var iterator = reports.stream.makeAsyncIterator()
        let (error, output) = try #require(await iterator.next())
        #expect(error.code == .branchFailed)
        #expect(error.element == "output1_encode")
        #expect(error.message.contains("encoder broke"))
        #expect(output === still)
        let count = log.count
        try await log.waitForFrames(count + 10)
        #expect(test.session.isRunning)
        #expect(test.session.runtime?.plan.branches.map(\.key) == ["output0"])
        // The next commit builds the failed branch again.
        test.session.beginConfiguration()
        try test.session.checked.commitConfiguration()
        let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        #expect(sample.formatDescription.codec == .jpeg)
    }

    @Test("the zoom ramp and the sensor's frame count run on across branch changes")
    func sourceStateSurvives() async throws {
        let frames = VideoDataOutput()
        let log = FrameLog(frames)
        let test = try TestSession(preset: .cif352x288, outputs: [frames])
        let device = test.input.device
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(3)
        let sensor = try #require(test.session.runtime?.live.withLock { $0.sources["input0"]?.painter } as? VirtualCameraSensor)
        try device.lockForConfiguration()
        try device.checked.ramp(toVideoZoomFactor: 4, withRate: 1)
        device.unlockForConfiguration()
        #expect(await waitFor { device.videoZoomFactor > 1.1 }, "the ramp under way")
        let still = StillImageOutput()
        try test.session.checked.addOutput(still)
        let midway = device.videoZoomFactor
        #expect(device.isRampingVideoZoom)
        #expect(await waitFor { device.videoZoomFactor > midway }, "the ramp goes on while the still output joins")
        try test.session.checked.removeOutput(still)
        #expect(test.session.runtime?.live.withLock { $0.sources["input0"]?.painter } as? VirtualCameraSensor === sensor)
        #expect(sensor.frameCount >= log.count - 1)
        try device.lockForConfiguration()
        try device.checked.cancelVideoZoomRamp()
        try device.setVideoZoomFactor(1)
        device.unlockForConfiguration()
    }

    @Test("a metadata output's objects keep their identity while other outputs come and go")
    func metadataIdentitySurvives() async throws {
        let metadata = MetadataOutput()
        try metadata.setMetadataObjectTypes([.qr])
        let test = try TestSession(preset: .vga640x480, outputs: [metadata])
        let stream = metadata.metadataObjects(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var codes: [MachineReadableCodeObject] = []
        var changed = false
        for await batch in stream {
            codes += batch.compactMap { $0 as? MachineReadableCodeObject }.filter { $0.type == .qr }
            if codes.count == 3 && !changed {
                // Add and remove another output mid-way: the metadata branch is not touched.
                changed = true
                let still = StillImageOutput()
                try test.session.checked.addOutput(still)
                try test.session.checked.removeOutput(still)
            }
            if codes.count >= 10 { break }
        }
        // One object all along: its duration grows by exactly its time, across the changes.
        let first = try #require(codes.first), last = try #require(codes.last)
        #expect(last.time > first.time)
        #expect(abs((last.duration.seconds - first.duration.seconds) - (last.time.seconds - first.time.seconds)) < 1e-6)
    }
}
