import Foundation
import Testing
@testable import CaptureKit

/// Completion handlers of V4L2 control changes get the presentation time of the first frame that
/// carries the change, found by metering: the recorded C920 table, a running source that stands
/// in for v4l2src (it reports the write's running time), and frames fed as the auto-control loop
/// meters them.
@Suite("V4L2 completion-handler times", .ownDevices)
struct V4L2CompletionTimeTests {
    /// Takes control writes like a running v4l2src, all at running time `writtenAt`.
    final class WrittenAt: RunningSourceControl {
        let time: CaptureTime
        init(_ seconds: Double) { time = CaptureTime(seconds: seconds, preferredTimescale: 1_000_000) }
        func writeControls(_ controls: [(name: String, value: String)]) throws(CaptureError) -> CaptureTime? { time }
        func setCrop(_ crop: DigitalZoom.Crop) throws(CaptureError) {}
    }

    /// The recorded C920, running at 30 fps with controls written at 1 s; frames before the write
    /// metered at luma 100.
    static func runningC920() throws -> CaptureDevice {
        let device = try V4L2SeedControlTests.camera("logitech-c920")
        device.setRunningSource(WrittenAt(1))
        for frame in 27...29 { device.frameMetered(meanLuma: 100, at: Self.frame(frame)) }
        return device
    }

    static func frame(_ index: Int) -> CaptureTime { CaptureTime(value: Int64(index), timescale: 30) }

    /// Feeds frames 30, 31, … with the given lumas and returns the time the handler got.
    static func completion(_ device: CaptureDevice, lumas: [Double],
                           change: (@escaping @Sendable (CaptureTime) -> Void) throws -> Void) async throws -> CaptureTime? {
        let done = AsyncStream<CaptureTime>.makeStream()
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try change { done.continuation.yield($0) }
        for (offset, luma) in lumas.enumerated() { device.frameMetered(meanLuma: luma, at: frame(30 + offset)) }
        device.clearRunningSource(device.readState { $0.runningSource! })
        var iterator = done.stream.makeAsyncIterator()
        return await iterator.next()
    }

    @Test("a doubled exposure completes at the first frame that got brighter, three frames after the write, not the first frame after it")
    func exposureMatchedByMetering() async throws {
        let device = try Self.runningC920()
        let doubled = CaptureTime(seconds: device.exposureDuration.seconds * 2, preferredTimescale: 1_000_000)
        let time = try await Self.completion(device, lumas: [100, 101, 99, 196, 198]) {
            try device.checked.setExposureModeCustom(duration: doubled, iso: CaptureDevice.currentISO, completionHandler: $0)
        }
        #expect(time == Self.frame(33))
    }

    @Test("a lens move completes at the first frame begun after the write; a change never seen, at the sixth frame")
    func unmeteredAndUnseen() async throws {
        let device = try Self.runningC920()
        let moved = try await Self.completion(device, lumas: [100, 100, 100]) { try device.checked.setFocusModeLocked(lensPosition: 0.3, completionHandler: $0) }
        #expect(moved == Self.frame(31), "frame 30 is presented at the write; frame 31 a full interval after it")
        let unseen = try Self.runningC920()
        for frame in 27...29 { unseen.frameMetered(meanLuma: 255, at: Self.frame(frame)) }
        let doubled = CaptureTime(seconds: unseen.exposureDuration.seconds * 2, preferredTimescale: 1_000_000)
        let late = try await Self.completion(unseen, lumas: Array(repeating: 255, count: 8)) {
            try unseen.checked.setExposureModeCustom(duration: doubled, iso: CaptureDevice.currentISO, completionHandler: $0)
        }
        #expect(late == Self.frame(36), "a clipped scene never shows it: the sixth frame after the write")
    }
}
