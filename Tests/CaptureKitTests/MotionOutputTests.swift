import Foundation
import Synchronization
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Motion through a live session: the virtual camera's scripted mover is found where and when
/// it enters and leaves, and the light changes a camera makes (torch, a white balance locked to
/// other gains, the scene's exposure steps, auto exposure settling) are not motion.
@Suite("Motion output", .ownDevices, .serialized)
struct MotionOutputTests {
    static let patch = CGRect(x: 0.33, y: 0.12, width: 0.15, height: 0.3)
    /// The moving square's band, left out.
    static let band = CGRect(x: 0, y: 0.85, width: 1, height: 0.15)

    /// Runs a 1280x720 session looking for motion until its frames reach `seconds`, calling
    /// `cue` with each batch's time; the motion objects seen.
    static func watch(until seconds: Double, device: CaptureDevice = .find(virtual: .back),
                      cue: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> [MotionObject] {
        let output = MetadataOutput()
        try output.setMetadataObjectTypes([.motion])
        try output.setMotionDetection(.init(ignoredRegions: [band]))
        let test = try TestSession(preset: .hd1280x720, device: device, outputs: [output])
        let frames = VideoDataOutput()
        try test.session.checked.addOutput(frames)
        let stream = output.metadataObjects(bufferingNewest: 256)
        let clock = frames.sampleBuffers(bufferingNewest: 2)
        try await test.session.checked.startRunning()
        // Cues run by the frames' clock, from a task of their own.
        let cues = Task {
            for await sample in clock {
                let time = sample.presentationTimeStamp.seconds
                cue(time)
                if time >= seconds { break }
            }
        }
        var seen: [MotionObject] = []
        let collector = Task {
            for await batch in stream { seen += batch.compactMap { $0 as? MotionObject } }
            return seen
        }
        await cues.value
        test.session.stopRunning()
        collector.cancel()
        return await collector.value
    }

    @Test("a patch entering and leaving on cue is motion at those times, where it is; the moving square's band is ignored")
    func moverOnCue() async throws {
        let device = CaptureDevice.find(virtual: .back)
        device.setVirtualMovers([VirtualMover(rect: Self.patch, enter: 1.5, leave: 3)])
        defer { device.setVirtualMovers([]) }
        let seen = try await Self.watch(until: 4, device: device)
        let entering = seen.filter { (1.5..<2.5).contains($0.time.seconds) }
        let leaving = seen.filter { (3..<4).contains($0.time.seconds) }
        let elsewhere = seen.filter { !(1.5..<2.5).contains($0.time.seconds) && !(3..<4).contains($0.time.seconds) }
        #expect(elsewhere.isEmpty, "\(elsewhere)")
        let first = try #require(entering.first, "the patch's arrival: \(seen)")
        #expect(leaving.first != nil, "the patch's departure: \(seen)")
        for object in [first] + leaving.prefix(1) {
            #expect(abs(object.bounds.midX - Self.patch.midX) < 0.03 && abs(object.bounds.midY - Self.patch.midY) < 0.04, "\(object.bounds)")
            #expect(abs(object.bounds.width - Self.patch.width) < 0.04 && abs(object.bounds.height - Self.patch.height) < 0.06, "\(object.bounds)")
            #expect(object.changedArea > 0.03 && object.score > 0.2, "\(object)")
        }
        // Found on the first analysed frame with it, or the next (5 fps: 0.2 s apart).
        #expect(first.time.seconds - 1.5 < 0.45, "first seen at \(first.time.seconds) s")
    }

    @Test("torch on and off, a white balance locked to tungsten gains, the scene a stop brighter and auto exposure settling back are not motion")
    func lightChanges() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let done = Mutex(Set<Int>())
        @Sendable func once(_ step: Int, _ body: () throws -> Void) {
            guard done.withLock({ $0.insert(step).inserted }) else { return }
            try? device.lockForConfiguration()
            try? body()
            device.unlockForConfiguration()
        }
        let seen = try await Self.watch(until: 6, device: device) { time in
            if time >= 1 { once(1) { try device.setTorchMode(.on) } }
            if time >= 1.8 { once(2) { try device.setTorchMode(.off) } }
            if time >= 2.6 { once(3) { device.setWhiteBalanceModeLocked(with: .init(redGain: 1.8, greenGain: 1, blueGain: 1.2)) } }
            if time >= 3.4 { once(4) { device.setVirtualSceneLight(ev: 1) } }
            if time >= 4.2 { once(5) { device.setVirtualSceneLight(ev: 0) } }
        }
        #expect(done.withLock { $0.count } == 5)
        #expect(seen.isEmpty, "\(seen.map { "\($0.time.seconds): \($0.bounds)" })")
    }
}
