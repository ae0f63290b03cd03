import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// The auto modes converge over frames on the virtual camera, through the same loop that runs
/// on V4L2 cameras' frames.
@Suite("Auto modes", .ownDevices, .serialized)
struct AutoModesTests {
    /// Statistics of a BGRA frame over `rect`.
    static func statistics(_ sample: SampleBuffer, _ rect: MeterRect = .centreHalf) throws -> FrameStatistics {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let meter = try #require(FrameMeter(width: width, height: height, pixelFormat: .bgra))
        return try sample.withPlanes { planes in
            try #require(meter.measure(UnsafeRawBufferPointer(planes[0].bytes), exposure: rect, whiteBalance: rect, focus: rect))
        }
    }

    /// B, G, R of a gray patch (row 0) at its centre.
    static func patch(_ sample: SampleBuffer, index: Int) throws -> (Int, Int, Int) {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let rect = VirtualScene.patchRect(index: index, row: 0, width: width, height: height)
        return try sample.withPlanes { planes in
            let offset = ((rect.y.lowerBound + rect.y.upperBound) / 2) * planes[0].bytesPerRow + (rect.x.lowerBound + rect.x.upperBound) / 2 * 4
            return (Int(planes[0].bytes[offset]), Int(planes[0].bytes[offset + 1]), Int(planes[0].bytes[offset + 2]))
        }
    }

    /// Standard deviation of the green channel over a gray patch's inner half.
    static func patchNoise(_ sample: SampleBuffer, index: Int) throws -> Double {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let rect = VirtualScene.patchRect(index: index, row: 0, width: width, height: height)
        return try sample.withPlanes { planes in
            var values: [Double] = []
            for y in (rect.y.lowerBound + 4)..<(rect.y.upperBound - 4) {
                for x in (rect.x.lowerBound + 4)..<(rect.x.upperBound - 4) {
                    values.append(Double(planes[0].bytes[y * planes[0].bytesPerRow + x * 4 + 1]))
                }
            }
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        }
    }

    @Test("continuous auto exposure brings a darker scene back to its target over frames")
    func continuousExposureConverges() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try await live.next()
        let first = try await live.next()
        #expect(try Self.patch(first, index: 2).1 == 102, "metered on its target from the start")
        device.setVirtualSceneLight(ev: -1.5)
        let frames = try await live.frames(until: { !device.isAdjustingExposure && abs(device.exposureTargetOffset) <= AutoExposure.tolerance },
                                           "offset \(device.exposureTargetOffset)")
        try await live.next()
        let level = try Self.patch(try await live.next(), index: 2).1
        #expect(abs(level - 102) <= 8, "gray back near 102: \(level)")
        #expect(frames >= 3 && frames <= 20, "\(frames) frames")
        #expect(abs(device.exposureDuration.seconds / (pow(2, 1.5) / 120) - 1) < 0.1, "\(device.exposureDuration)")
        #expect(device.iso == 100, "duration first, ISO 100")
    }

    @Test("auto expose settles once, then locks; the exposure point of interest meters around it")
    func autoExposeAndPointOfInterest() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        device.setVirtualSceneLight(ev: 1)
        try device.setExposureMode(.autoExpose)
        _ = try await live.frames(until: { device.exposureMode == .locked }, "mode \(device.exposureMode)")
        #expect(abs(device.exposureTargetOffset) <= AutoExposure.tolerance)
        let locked = device.exposureDuration
        device.setVirtualSceneLight(ev: 0)
        for _ in 0..<5 { try await live.next() }
        #expect(device.exposureDuration == locked, "locked after settling")
        #expect(device.exposureTargetOffset < -0.8, "the meter still reads the darker scene: \(device.exposureTargetOffset)")

        // Metering around the black patch needs more light than around the white one.
        let width = 352.0, height = 288.0
        func centre(_ index: Int) -> CGPoint {
            let rect = VirtualScene.patchRect(index: index, row: 0, width: Int(width), height: Int(height))
            return CGPoint(x: Double(rect.x.lowerBound + rect.x.upperBound) / 2 / width, y: Double(rect.y.lowerBound + rect.y.upperBound) / 2 / height)
        }
        var durations: [Double] = []
        for index in [0, 5] {
            try device.setExposurePointOfInterest(centre(index))
            try device.setExposureMode(.continuousAutoExposure)
            _ = try await live.frames(until: { !device.isAdjustingExposure && abs(device.exposureTargetOffset) <= AutoExposure.tolerance })
            durations.append(device.exposureDuration.seconds * Double(device.iso))
        }
        #expect(durations[0] > durations[1] * 1.3, "dark spot \(durations[0]) vs bright spot \(durations[1])")
    }

    @Test("continuous white balance neutralises a new light over frames; auto white balance then locks")
    func whiteBalanceConverges() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try await live.next()
        device.setVirtualIlluminant(temperature: 6500)
        try await live.next()
        var sawAdjusting = false
        let frames = try await live.frames(until: {
            sawAdjusting = sawAdjusting || device.isAdjustingWhiteBalance
            return sawAdjusting && !device.isAdjustingWhiteBalance
        }, "gains \(device.deviceWhiteBalanceGains)")
        try await live.next()
        let (blue, green, red) = try Self.patch(try await live.next(), index: 3)
        #expect(abs(blue - green) <= 3 && abs(red - green) <= 3, "gray patch neutral: \(blue) \(green) \(red)")
        #expect(frames >= 3 && frames <= 30, "\(frames) frames")
        let kelvin = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains).temperature
        #expect(kelvin > 5000, "balanced for daylight: \(kelvin) K")

        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        device.setVirtualIlluminant(temperature: 3200)
        try device.setWhiteBalanceMode(.autoWhiteBalance)
        _ = try await live.frames(until: { device.whiteBalanceMode == .locked }, "mode \(device.whiteBalanceMode)")
        let gray = device.grayWorldDeviceWhiteBalanceGains, gains = device.deviceWhiteBalanceGains
        #expect(AutoWhiteBalance.isBalanced(gains, target: gray, tolerance: 0.02), "\(gains) vs gray world \(gray)")
    }

    @Test("continuous and one-shot autofocus find the sharp lens position; range restriction and smooth focus shape the search")
    func autofocusSearch() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.checked.setFocusModeLocked(lensPosition: 0.05)
        try await live.next()
        try device.setFocusPointOfInterest(CGPoint(x: 0.68, y: 0.48))
        try device.setFocusMode(.autoFocus)
        let frames = try await live.frames(until: { device.focusMode == .locked }, "lens \(device.lensPosition)")
        #expect(abs(device.lensPosition - FocusState.inFocusPosition) <= 0.031, "\(device.lensPosition)")
        #expect(!device.isAdjustingFocus)
        #expect(frames >= 15 && frames <= 40, "\(frames) frames")
        try await live.next()
        let sharp = try FocusTests.sharpness(try await live.next())
        #expect(sharp > 200, "\(sharp)")

        // Near subjects only: the search stays in 0…0.5, short of the scene's distance.
        try device.setAutoFocusRangeRestriction(.near)
        try device.setFocusMode(.autoFocus)
        _ = try await live.frames(until: { device.focusMode == .locked })
        #expect(device.lensPosition <= 0.5 && device.lensPosition >= 0.45, "\(device.lensPosition)")
        try await live.next()
        let near = try FocusTests.sharpness(try await live.next())
        #expect(near < sharp)

        // Smooth: smaller steps, so more frames, never more than 0.05 per frame.
        try device.setAutoFocusRangeRestriction(.none)
        try device.setSmoothAutoFocusEnabled(true)
        try device.checked.setFocusModeLocked(lensPosition: 0.05)
        try await live.next()
        var positions: [Float] = []
        try device.setFocusMode(.continuousAutoFocus)
        let smoothFrames = try await live.frames(until: {
            positions.append(device.lensPosition)
            return device.isAdjustingFocus == false && positions.count > 3
        })
        #expect(smoothFrames > frames, "smooth \(smoothFrames) vs \(frames) frames")
        #expect(abs(device.lensPosition - FocusState.inFocusPosition) <= 0.031, "\(device.lensPosition)")
        try device.setSmoothAutoFocusEnabled(false)
    }

    @Test("noise grows with ISO at the same brightness")
    func noiseGrowsWithISO() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        var noise: [Double] = []
        for (duration, iso) in [(120, Float(100)), (480, 400), (1920, 1600)] {
            let applied = AsyncStream<CaptureTime>.makeStream()
            try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: Int32(duration)), iso: iso) { applied.continuation.yield($0) }
            var waiting = applied.stream.makeAsyncIterator()
            let time = try #require(await waiting.next())
            while try await live.next().presentationTime < time {}
            let sample = try await live.next()
            noise.append(try Self.patchNoise(sample, index: 2))
            let level = try Self.statistics(sample, MeterRect(x: 0.40, y: 0.66, width: 0.05, height: 0.05)).green
            #expect(abs(level - 102) < 4, "same brightness at ISO \(iso): \(level)")
        }
        #expect(noise[0] < 0.5 && noise[1] > noise[0] + 1 && noise[2] > noise[1] + 2, "\(noise)")
    }
}
