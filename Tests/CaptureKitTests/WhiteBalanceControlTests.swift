import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

@Suite("White balance on the virtual camera", .ownDevices, .serialized)
struct WhiteBalanceControlTests {
    /// (red, green, blue) of a gray patch in a BGRA frame.
    static func patch(_ sample: SampleBuffer, index: Int = 3) throws -> (Int, Int, Int) {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let rect = VirtualScene.patchRect(index: index, row: 0, width: width, height: height)
        return try sample.withPlanes { planes in
            let offset = (rect.y.lowerBound + 3) * planes[0].bytesPerRow + (rect.x.lowerBound + 3) * 4
            return (Int(planes[0].bytes[offset + 2]), Int(planes[0].bytes[offset + 1]), Int(planes[0].bytes[offset]))
        }
    }

    @Test("the tungsten-lit scene is neutral under continuous white balance and orange with unit gains from exactly syncTime")
    func lockedGains() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
            device.unlockForConfiguration()
        }
        #expect(device.whiteBalanceMode == .continuousAutoWhiteBalance)
        var iterator = stream.makeAsyncIterator()
        var seen: [(CaptureTime, (Int, Int, Int))] = []
        for _ in 0..<3 {
            let sample = try #require(await iterator.next())
            seen.append((sample.presentationTime, try Self.patch(sample)))
        }
        #expect(seen[2].1 == (153, 153, 153), "balanced gray")
        // Gray world measured the tungsten light: its gains match the 3200 K conversion.
        let measured = device.grayWorldDeviceWhiteBalanceGains
        let expected = device.deviceWhiteBalanceGains(for: .init(temperature: 3200, tint: 0))
        #expect(abs(measured.redGain - expected.redGain) < 0.01 && abs(measured.blueGain - expected.blueGain) < 0.01, "\(measured) vs \(expected)")
        #expect(abs(device.temperatureAndTintValues(for: measured).temperature - 3200) < 5)

        let synced = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1)) {
            synced.continuation.yield($0)
        }
        var syncIterator = synced.stream.makeAsyncIterator()
        let syncTime = try #require(await syncIterator.next())
        while seen.last.map({ $0.0 < syncTime }) ?? true {
            let sample = try #require(await iterator.next())
            seen.append((sample.presentationTime, try Self.patch(sample)))
        }
        let index = try #require(seen.firstIndex { $0.0 == syncTime })
        #expect(seen[index - 1].1 == (153, 153, 153))
        let (red, green, blue) = seen[index].1
        #expect(red == 153 && green < red && blue < green, "tungsten orange: \(seen[index].1)")
        #expect(device.whiteBalanceMode == .locked)
    }

    @Test("gains are checked against 1...maxWhiteBalanceGain and need the lock")
    func gainErrors() throws {
        let device = CaptureDevice.find(virtual: .front)
        let unit = CaptureDevice.WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
        #expect(throws: CaptureError.notLocked(device: "virtual:front")) { try device.checked.setWhiteBalanceModeLocked(with: unit) }
        try device.lockForConfiguration()
        defer {
            try? device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
            device.unlockForConfiguration()
        }
        #expect(device.maxWhiteBalanceGain == 8)
        #expect(throws: CaptureError.outOfRange(name: "blue white balance gain", value: 0.5, range: 1...8)) {
            try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 0.5))
        }
        #expect(throws: CaptureError.outOfRange(name: "red white balance gain", value: 9, range: 1...8)) {
            try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 9, greenGain: 1, blueGain: 1))
        }
        #expect(throws: CaptureError.unsupported(feature: "white balance mode autoWhiteBalance", device: "test-pattern:snow")) {
            let pattern = CaptureDevice.testPattern(width: 64, height: 48, pattern: "snow", isLive: true)
            try pattern.lockForConfiguration()
            defer { pattern.unlockForConfiguration() }
            try pattern.setWhiteBalanceMode(.autoWhiteBalance)
        }
        try device.checked.setWhiteBalanceModeLocked(with: CaptureDevice.currentWhiteBalanceGains)
        #expect(device.whiteBalanceMode == .locked)
    }

    @Test("gains are normalised to the smallest channel: R:2 G:2 B:4 becomes R:1 G:1 B:2 (seed 000)")
    func gainNormalisation() throws {
        let device = CaptureDevice.find(virtual: .front)
        try device.lockForConfiguration()
        defer {
            try? device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
            device.unlockForConfiguration()
        }
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 2, greenGain: 2, blueGain: 4))
        #expect(device.deviceWhiteBalanceGains == .init(redGain: 1, greenGain: 1, blueGain: 2))
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 3, greenGain: 1.5, blueGain: 6))
        #expect(device.deviceWhiteBalanceGains == .init(redGain: 2, greenGain: 1, blueGain: 4))
    }
}
