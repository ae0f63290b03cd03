import Foundation
import Testing
@testable import CaptureKit

/// Bracketed capture on V4L2 cameras, on the recorded C920 table: each image's exposure goes
/// through the manual controls, and its image waits for the first frame that shows it, found by
/// metering (the stand-in running source and fed frames of `V4L2CompletionTimeTests`).
@Suite("V4L2 brackets", .ownDevices)
struct V4L2BracketTests {
    /// Runs `override` on `device` while frames 30, 31, … are metered at `lumas`; returns the
    /// time of the frame the bracket image waited for.
    static func apply(_ override: ExposureOverride?, on device: CaptureDevice, lumas: [Double]) async throws -> CaptureTime {
        let waiting = Task { await device.applyMeteredBracketOverride(override) }
        var polls = 0
        while device.readState({ $0.pendingControlChanges.isEmpty }) {
            polls += 1
            try #require(polls < 10_000, "the bracket image never waited for a frame")
            await Task.yield()
        }
        for (offset, luma) in lumas.enumerated() { device.frameMetered(meanLuma: luma, at: V4L2CompletionTimeTests.frame(30 + offset)) }
        return await waiting.value
    }

    @Test("a bracket image is written as manual exposure time and gain, taken from the first frame that shows it (three frames late), and auto exposure returns after the bracket")
    func manualImageMatchedByMetering() async throws {
        let device = try V4L2CompletionTimeTests.runningC920()
        let mapping = try #require(device.v4l2Mapping)
        let own = device.readState { $0.exposure }
        // Four times the light the camera runs with.
        let duration = CaptureTime(seconds: own.duration.seconds * 2, preferredTimescale: 10_000)
        let iso = own.iso * 2
        let shown = try await Self.apply(.manual(duration: duration, iso: iso), on: device, lumas: [100, 100, 102, 230, 231])
        #expect(shown == V4L2CompletionTimeTests.frame(33), "the frame whose luma moved, not the first after the write")
        let gain = try #require(mapping.gain(forISO: iso))
        let time = V4L2ControlMapping.snap(duration.seconds * 10_000, to: try #require(mapping[.exposureCustom].uses.first { $0.name.hasPrefix("exposure") }).control)
        #expect(device.extraControls?.contains("auto_exposure=1") == true)
        #expect(device.extraControls?.contains("exposure_time_absolute=\(time)") == true && device.extraControls?.contains("gain=\(gain)") == true,
                "\(device.extraControls ?? "none")")
        #expect(device.readState { $0.exposure.override } != nil)

        // The bracket ends: the camera's own continuous auto exposure is written back.
        let restored = try await Self.apply(nil, on: device, lumas: [231, 230, 180, 110, 101, 100])
        #expect(restored == V4L2CompletionTimeTests.frame(33), "back down half way in stops at the fourth frame (110)")
        #expect(device.extraControls?.contains("auto_exposure=3") == true, "\(device.extraControls ?? "none")")
        #expect(device.readState { $0.exposure.override } == nil)
    }
}
