import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Formats and frame durations chosen on a running session, and digital zoom in the pipeline.
@Suite("Formats on a running session", .ownDevices, .serialized, .timeLimit(.minutes(3)))
struct FormatSwitchTests {
    @Test("setting activeFormat on a running session switches its caps and makes the preset inputPriority")
    func activeFormatSwitch() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        #expect(try await live.next().formatDescription.width == 352)
        let vga = try #require(device.formats.first { $0.width == 640 && $0.height == 480 })
        #expect(throws: CaptureError.notLocked(device: "virtual:back")) { try device.setActiveFormat(vga) }
        try device.lockForConfiguration()
        defer {
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            device.unlockForConfiguration()
        }
        try device.setActiveFormat(vga)
        #expect(live.test.session.sessionPreset == .inputPriority)
        #expect(live.test.session.isRunning)
        try await live.frames(untilSample: { $0.formatDescription.width == 640 })
        #expect(live.latest?.formatDescription.height == 480)
        #expect(live.test.session.pipelineDescription.contains("width=640,height=480"))
    }

    @Test("a camera added to a session with a preset starts at the format's rate, whatever it was left at; under inputPriority it keeps its rate")
    func frameDurationsResetOnJoining() throws {
        let device = CaptureDevice.find(virtual: .back)
        let vga = try #require(device.formats.first { $0.width == 640 && $0.height == 480 })
        try device.lockForConfiguration()
        defer {
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            device.unlockForConfiguration()
        }
        try device.setActiveFormat(vga)
        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        let kept = CaptureSession()
        try kept.setSessionPreset(.inputPriority)
        try kept.checked.addInputWithNoConnections(CaptureDeviceInput(device: device))
        #expect(device.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 15))
        #expect(kept.pipelineDescription.contains("framerate=15/1"), "\(kept.pipelineDescription)")
        try kept.checked.removeInput(try #require(kept.inputs.first))
        let preset = CaptureSession()
        try preset.setSessionPreset(.vga640x480)
        try preset.checked.addInput(CaptureDeviceInput(device: device))
        #expect(device.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 30))
        #expect(preset.pipelineDescription.contains("framerate=30/1"), "\(preset.pipelineDescription)")
    }

    @Test("frame durations are validated against the format's ranges and set the running rate; seed 000's highest-frame-rate recipe works")
    func frameDurations() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer {
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            device.unlockForConfiguration()
        }
        #expect(device.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 30))
        #expect(throws: CaptureError.outOfRange(name: "activeVideoMinFrameDuration", value: 1.0 / 120, range: (1.0 / 60)...1)) {
            try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 120))
        }
        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        let session = live.test.session
        #expect(session.pipelineDescription.contains("framerate=15/1"))
        // The source renegotiates between two frames (a live caps change, no restart): frames
        // already on their way keep the old rate, so wait for the first new step.
        var previous = try await live.next().presentationTime.seconds
        _ = try await live.frames(untilSample: { sample in
            defer { previous = sample.presentationTime.seconds }
            return sample.presentationTime.seconds - previous > 1.0 / 20
        }, limit: 10)
        let first = try await live.next(), second = try await live.next()
        #expect(abs((second.presentationTime.seconds - first.presentationTime.seconds) - 1.0 / 15) < 0.002)

        // Seed 000: the format and range with the highest rate, both durations at its minimum.
        var best: (format: CaptureDevice.Format, range: CaptureDevice.FrameRateRange)?
        for format in device.formats {
            for range in format.videoSupportedFrameRateRanges where range.maxFrameRate > (best?.range.maxFrameRate ?? 0) {
                best = (format, range)
            }
        }
        let chosen = try #require(best)
        try device.setActiveFormat(chosen.format)
        try device.setActiveVideoMinFrameDuration(chosen.range.minFrameDuration)
        try device.setActiveVideoMaxFrameDuration(chosen.range.minFrameDuration)
        #expect(device.activeVideoMaxFrameDuration == chosen.range.minFrameDuration)
        try await live.frames(untilSample: { $0.formatDescription.width == chosen.format.width })
        let a = try await live.next(), b = try await live.next()
        #expect(abs((b.presentationTime.seconds - a.presentationTime.seconds) - 1.0 / 60) < 0.002, "60 fps")
        #expect(throws: CaptureError.self) { try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 1000)) }
    }

    @Test("activeVideoMaxFrameDuration lets the device slow down in low light, and min = max = 1/15 s gives 15 fps (seed 000)")
    func maxFrameDurationLowersTheRate() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer {
            device.setVirtualSceneLight(ev: 0)
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            try? device.setActiveVideoMaxFrameDuration(CaptureDevice.defaultFrameDuration)
            device.unlockForConfiguration()
            device.restoreDefaultControls()
        }
        let session = live.test.session
        func expectRate(_ expected: Double, _ what: String) async throws {
            let rate = try await live.measuredRate()
            #expect(abs(rate - expected) <= 0.15 * expected, "\(what): \(rate) fps, expected \(expected)")
        }
        try await expectRate(30, "bright scene")
        // 3 EV darker needs 1/15 s at ISO 100: with the default maximum, auto exposure keeps
        // 1/30 s and raises ISO instead.
        device.setVirtualSceneLight(ev: -3)
        try await live.frames(until: { !device.isAdjustingExposure && abs(device.exposureTargetOffset) < 0.2 }, minimum: 4)
        #expect(device.exposureDuration.seconds <= 1.0 / 30 + 1e-6, "\(device.exposureDuration)")
        try await expectRate(30, "dark scene, maximum frame duration 1/30 s")

        try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 15))
        #expect(device.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 30))
        // Auto exposure lengthens the exposure to about 1/15 s (within its 0.1 EV tolerance).
        try await live.frames(until: { device.exposureDuration.seconds > 1.0 / 20 && !device.isAdjustingExposure },
                              minimum: 4, "exposure \(device.exposureDuration)")
        _ = try await live.frames(untilSample: { _ in !session.pipelineDescription.contains("framerate=30/1") })
        try await expectRate(15, "dark scene, maximum frame duration 1/15 s")

        device.setVirtualSceneLight(ev: 0)
        try await live.frames(until: { device.exposureDuration.seconds < 1.0 / 30 && !device.isAdjustingExposure }, minimum: 4,
                              "exposure \(device.exposureDuration)")
        _ = try await live.frames(untilSample: { _ in session.pipelineDescription.contains("framerate=30/1") })
        try await expectRate(30, "bright again")

        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        #expect(device.activeVideoMaxFrameDuration == CaptureTime(value: 1, timescale: 15))
        _ = try await live.frames(untilSample: { _ in session.pipelineDescription.contains("framerate=15/1") })
        try await expectRate(15, "min = max = 1/15 s")
        #expect(session.isRunning)
    }

    @Test("cameras without optical zoom zoom digitally in the pipeline (videocrop + videoscale), live and ramped")
    func pipelineDigitalZoom() async throws {
        let device = CaptureDevice.testPattern(width: 320, height: 240, pattern: "checkers-8", isLive: true, videoMaxZoomFactor: 4)
        var live = try await LiveFrames(device: device, preset: .inputPriority)
        defer { live.stop() }
        #expect(live.test.session.pipelineDescription.contains("videocrop"))
        /// Black/white changes along the middle row (thresholded: scaling interpolates): 40
        /// checker cells at 1×.
        func edges(_ sample: SampleBuffer) throws -> Int {
            try sample.withPlanes { planes in
                let row = 120 * planes[0].bytesPerRow
                func white(_ x: Int) -> Bool { planes[0].bytes[row + x * 4 + 1] > 127 }
                return (1..<320).filter { white($0) != white($0 - 1) }.count
            }
        }
        #expect(try edges(try await live.next()) == 39)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setVideoZoomFactor(2)
        try await live.frames(untilSample: { try edges($0) < 30 })
        let zoomed = try edges(try await live.next())
        #expect(zoomed >= 18 && zoomed <= 21, "cells twice as wide: \(zoomed) edges")
        try device.checked.ramp(toVideoZoomFactor: 4, withRate: 8)
        _ = try await live.frames(until: { !device.isRampingVideoZoom }, minimum: 1, limit: 30)
        #expect(device.videoZoomFactor == 4)
        try await live.next()
        let ramped = try edges(try await live.next())
        #expect(ramped >= 8 && ramped <= 11, "\(ramped) edges at 4×")
    }
}
