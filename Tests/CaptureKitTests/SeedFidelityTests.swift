import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// Behaviour the seeds document, each test against the seed's own sentence.
@Suite("Seed fidelity", .ownDevices, .serialized)
struct SeedFidelityTests {
    @Test("\"AVCaptureDevice always sets videoHDREnabled to NO when a client sets a new format using the activeFormat property\" (seed 000)")
    func formatTurnsHDROff() throws {
        let device = CaptureDevice.find(virtual: .back)
        try device.lockForConfiguration()
        defer {
            try? device.setAutomaticallyAdjustsVideoHDREnabled(true)
            device.unlockForConfiguration()
        }
        let format = try #require(device.formats.first { $0 != device.activeFormat })
        try device.setAutomaticallyAdjustsVideoHDREnabled(false)
        try device.setVideoHDREnabled(true)
        try device.setAutomaticallyAdjustsVideoHDREnabled(true)
        #expect(device.isVideoHDREnabled)
        try device.setActiveFormat(format)
        #expect(!device.isVideoHDREnabled, "on with automatic adjustment → off after a format")
        // Without automatic adjustment the client's choice stands.
        try device.setAutomaticallyAdjustsVideoHDREnabled(false)
        try device.setVideoHDREnabled(true)
        try device.setActiveFormat(try #require(device.formats.first { $0 != format }))
        #expect(device.isVideoHDREnabled)
        try device.setVideoHDREnabled(false)
    }

    @Test("automaticallyEnablesStillImageStabilizationWhenAvailable: \"The default value is YES when supported by the input device; otherwise NO\", settable only when supported (seed 001)")
    func stabilization() {
        let still = StillImageOutput()
        #expect(!still.isStillImageStabilizationSupported && !still.automaticallyEnablesStillImageStabilizationWhenAvailable)
        #expect(throws: CaptureError.invalidSetting(name: "automaticallyEnablesStillImageStabilizationWhenAvailable", value: "true",
                                                    valid: "nothing while isStillImageStabilizationSupported is false")) {
            try still.setAutomaticallyEnablesStillImageStabilizationWhenAvailable(true)
        }
    }

    @Test("VideoOrientation's raw values are AVCaptureVideoOrientation's: portrait 1, portraitUpsideDown 2, landscapeRight 3, landscapeLeft 4 (seed 004 builds one from an Int)")
    func orientationRawValues() {
        #expect([1, 2, 3, 4].compactMap(VideoOrientation.init(rawValue:)) == [.portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft])
        #expect(VideoOrientation(rawValue: 0) == nil && VideoOrientation(rawValue: 5) == nil)
        #expect(VideoOrientation(name: "landscapeLeft") == .landscapeLeft && VideoOrientation.landscapeLeft.description == "landscapeLeft")
    }

    @Test("currentExposureTargetBias keeps the bias and still reports when it is in force (AVCaptureExposureTargetBiasCurrent, seed 000)")
    func currentBias() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.checked.setExposureTargetBias(0)
            device.unlockForConfiguration()
        }
        try device.checked.setExposureTargetBias(-1)
        let synced = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setExposureTargetBias(CaptureDevice.currentExposureTargetBias) { time in
            synced.continuation.yield(time)
            synced.continuation.finish()
        }
        #expect(device.exposureTargetBias == -1)
        var iterator = synced.stream.makeAsyncIterator()
        let time = await iterator.next()
        #expect(time?.isNumeric == true && time! > .zero, "\(String(describing: time))")
        #expect(throws: CaptureError.self) { try device.checked.setExposureTargetBias(9) }
    }

    @Test("requestAccess(for:completionHandler:) answers through the handler, as seed 004 calls it")
    func requestAccessHandler() async throws {
        let expected = CaptureDevice.authorizationStatus(for: .video) == .authorized
        let answer = await withCheckedContinuation { continuation in
            CaptureDevice.requestAccess(for: .video) { granted in continuation.resume(returning: granted) }
        }
        #expect(answer == expected)
    }
}

extension SeedFidelityTests {
    @Test("\"Choosing a new preset for the capture session also resets\" activeVideoMinFrameDuration and activeVideoMaxFrameDuration (seed 000)")
    func presetResetsFrameDurations() throws {
        let device = CaptureDevice.find(virtual: .back)
        let test = try TestSession(preset: .high, device: device, outputs: [VideoDataOutput()])
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let slow = CaptureTime(value: 1, timescale: 15)
        try device.setActiveVideoMinFrameDuration(slow)
        try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 10))
        #expect(device.activeVideoMinFrameDuration == slow)
        try test.session.setSessionPreset(.medium)
        #expect(device.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 30), "\(device.activeVideoMinFrameDuration)")
        #expect(device.activeVideoMaxFrameDuration == device.activeVideoMinFrameDuration)
        // The same preset again is no new choice: the durations stay.
        try device.setActiveVideoMinFrameDuration(slow)
        try test.session.setSessionPreset(.medium)
        #expect(device.activeVideoMinFrameDuration == slow)
        try device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
    }
}
