import Foundation
import Synchronization
import Testing
@testable import CaptureKit

@Suite("Exposure", .ownDevices, .serialized)
struct ExposureTests {
    /// Mean of a gray patch in a BGRA frame.
    static func patchLevel(_ sample: SampleBuffer, index: Int) throws -> Int {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let rect = VirtualScene.patchRect(index: index, row: 0, width: width, height: height)
        return try sample.withPlanes { planes in
            Int(planes[0].bytes[(rect.y.lowerBound + 3) * planes[0].bytesPerRow + (rect.x.lowerBound + 3) * 4 + 1])
        }
    }

    @Test("custom exposure brightens from exactly the syncTime frame, and stills carry it in EXIF")
    func customExposure() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames, still])
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setExposureMode(.continuousAutoExposure)
            device.unlockForConfiguration()
        }
        #expect(device.exposureMode == .continuousAutoExposure)
        #expect(device.lensAperture == 2)
        var iterator = stream.makeAsyncIterator()
        var seen: [(CaptureTime, Int)] = []
        for _ in 0..<3 {
            let sample = try #require(await iterator.next())
            seen.append((sample.presentationTime, try Self.patchLevel(sample, index: 2)))
        }
        // Twice the light: 1/60 s at ISO 100 instead of the metered 1/120 s.
        let synced = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: CaptureDevice.currentISO) { time in
            synced.continuation.yield(time)
        }
        #expect(device.exposureMode == .custom)
        #expect(device.iso == 100)
        var syncTime: CaptureTime?
        var syncIterator = synced.stream.makeAsyncIterator()
        while seen.count < 43 {
            guard let sample = await iterator.next() else { break }
            seen.append((sample.presentationTime, try Self.patchLevel(sample, index: 2)))
            if seen.count == 13 { syncTime = await syncIterator.next() }
            if syncTime != nil && seen.count > 15 { break }
        }
        let time = try #require(syncTime)
        let index = try #require(seen.firstIndex { $0.0 == time }, "no frame at syncTime \(time)")
        #expect(index > 0)
        #expect(seen[index - 1].1 == 102, "the frame before syncTime is still metered")
        #expect(seen[index].1 == 204, "the syncTime frame has twice the light")
        #expect(seen[index...].allSatisfy { $0.1 == 204 })

        let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        let file = try temporaryDirectory().appendingPathComponent("exposure.jpg")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: file)
        let tags = try exifTags(file, ["ExposureTime", "ISO", "FNumber", "ExposureMode"])
        #expect(tags["ExposureTime"] == "0.01666666667" || tags["ExposureTime"]?.hasPrefix("0.0166") == true, "\(tags)")
        #expect(tags["ISO"] == "100")
        #expect(tags["FNumber"] == "2")
        #expect(tags["ExposureMode"] == "1", "manual")
    }

    @Test("target bias moves auto exposure; exposureTargetOffset meters the frame against the target")
    func targetBiasAndOffset() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.checked.setExposureTargetBias(0)
            try? device.setExposureMode(.continuousAutoExposure)
            device.unlockForConfiguration()
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(abs(device.exposureTargetOffset) < 0.01, "auto exposure sits on its target")
        let synced = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setExposureTargetBias(-1) { synced.continuation.yield($0) }
        var syncIterator = synced.stream.makeAsyncIterator()
        let syncTime = try #require(await syncIterator.next())
        var sample = try #require(await iterator.next())
        while sample.presentationTime < syncTime { sample = try #require(await iterator.next()) }
        #expect(sample.presentationTime == syncTime)
        // Auto exposure walks down to the biased target over the next frames, then rests.
        var settling = 0
        while device.isAdjustingExposure || abs(device.exposureTargetOffset) > AutoExposure.tolerance {
            sample = try #require(await iterator.next())
            settling += 1
            try #require(settling < 30, "auto exposure did not settle: offset \(device.exposureTargetOffset)")
        }
        sample = try #require(await iterator.next())
        sample = try #require(await iterator.next())
        #expect(settling >= 1, "a one-stop change takes frames")
        let level = try Self.patchLevel(sample, index: 2)
        #expect(abs(level - 51) <= 4, "one stop darker: \(level)")
        #expect(abs(device.exposureDuration.seconds / (1.0 / 240) - 1) < 0.08, "\(device.exposureDuration)")
        #expect(abs(device.exposureTargetOffset) <= AutoExposure.tolerance, "on the biased target")
        // Custom exposure two stops above the biased target: the meter says so.
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 120), iso: 200) { synced.continuation.yield($0) }
        _ = await syncIterator.next()
        // Highlights clip at twice the light, so the meter reads a little under the 2 EV it is set to.
        #expect(device.exposureTargetOffset > 1.2 && device.exposureTargetOffset <= 2.05, "\(device.exposureTargetOffset)")
        #expect(throws: CaptureError.outOfRange(name: "exposure target bias", value: 9, range: -8...8)) { try device.checked.setExposureTargetBias(9) }
    }

    @Test("exposure needs the lock, supported modes and values in range")
    func exposureMisuse() throws {
        let device = CaptureDevice.find(virtual: .front)
        #expect(throws: CaptureError.notLocked(device: "virtual:front")) {
            try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 100)
        }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(throws: CaptureError.outOfRange(name: "ISO", value: 6400, range: 50...3200)) {
            try device.checked.setExposureModeCustom(duration: CaptureDevice.currentExposureDuration, iso: 6400)
        }
        #expect(throws: CaptureError.outOfRange(name: "exposure duration", value: 2, range: (1.0 / 8000)...1)) {
            try device.checked.setExposureModeCustom(duration: CaptureTime(value: 2, timescale: 1), iso: CaptureDevice.currentISO)
        }
        // Longer than a frame but within activeFormat.maxExposureDuration: the frames lengthen to
        // hold it, as in AVFoundation.
        #expect(device.activeVideoMaxFrameDuration < CaptureTime(value: 1, timescale: 2))
        try device.checked.setExposureModeCustom(duration: device.activeFormat.maxExposureDuration, iso: CaptureDevice.currentISO)
        #expect(device.exposureDuration == CaptureTime(value: 1, timescale: 1) && device.activeVideoMaxFrameDuration == CaptureTime(value: 1, timescale: 1))
        device.restoreDefaultControls()
        try device.setActiveVideoMaxFrameDuration(CaptureDevice.defaultFrameDuration)
        #expect(throws: CaptureError.outOfRange(name: "exposure point of interest x", value: 1.5, range: 0...1)) {
            try device.setExposurePointOfInterest(CGPoint(x: 1.5, y: 0.5))
        }
        #expect(device.exposurePointOfInterest == CGPoint(x: 0.5, y: 0.5))
        #expect(device.activeFormat.minISO == 50 && device.activeFormat.maxISO == 3200)
    }
}

@Suite("Torch", .ownDevices, .serialized)
struct TorchTests {
    @Test("the back camera's torch adds light in proportion to its level; the front camera has none")
    func torch() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(device.hasTorch && !CaptureDevice.find(virtual: .front).hasTorch)
        #expect(throws: CaptureError.notLocked(device: "virtual:back")) { try device.setTorchModeOn(level: 0.5) }
        try device.lockForConfiguration()
        defer {
            try? device.setTorchMode(.off)
            device.unlockForConfiguration()
        }
        // Exposure held, so that auto exposure does not take the torch's light back.
        try device.setExposureMode(.locked)
        try device.setTorchModeOn(level: 0.5)
        #expect(device.isTorchActive && device.torchMode == .on && device.torchLevel == 0.5)
        let changed = try #require(test.session.runtime?.pipeline.runningTime)
        var iterator = stream.makeAsyncIterator()
        var latest = try #require(await iterator.next())
        while latest.presentationTime.nanoseconds < Int64(changed) + 40_000_000 { latest = try #require(await iterator.next()) }
        #expect(try ExposureTests.patchLevel(latest, index: 2) == 153, "gray 102 under a half torch")
        #expect(throws: CaptureError.self) { try device.setTorchModeOn(level: 1.5) }
        #expect(throws: CaptureError.unsupported(feature: "torch", device: "virtual:front")) {
            let front = CaptureDevice.find(virtual: .front)
            try front.lockForConfiguration()
            defer { front.unlockForConfiguration() }
            try front.setTorchModeOn(level: 1)
        }
    }
}
