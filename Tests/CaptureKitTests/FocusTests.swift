import Foundation
import Testing
@testable import CaptureKit

@Suite("Focus", .ownDevices, .serialized)
struct FocusTests {
    /// Mean absolute difference between horizontal neighbours over the scene's checkerboard:
    /// about 255 when sharp, near 0 when blurred.
    static func sharpness(_ sample: SampleBuffer) throws -> Double {
        let width = sample.formatDescription.width, height = sample.formatDescription.height
        let x0 = Int(Double(width) * 0.62), x1 = Int(Double(width) * 0.75)
        let y0 = Int(Double(height) * 0.42), y1 = Int(Double(height) * 0.54)
        return try sample.withPlanes { planes in
            let plane = planes[0]
            var total = 0, count = 0
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let a = Int(plane.bytes[y * plane.bytesPerRow + x * 4 + 1]), b = Int(plane.bytes[y * plane.bytesPerRow + (x + 1) * 4 + 1])
                    total += abs(a - b)
                    count += 1
                }
            }
            return Double(total) / Double(count)
        }
    }

    @Test("locking the lens away from focus blurs from exactly the syncTime frame; continuous focus restores it")
    func lensPosition() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setFocusMode(.continuousAutoFocus)
            device.unlockForConfiguration()
        }
        #expect(device.focusMode == .continuousAutoFocus)
        #expect(device.lensPosition == FocusState.inFocusPosition)
        var iterator = stream.makeAsyncIterator()
        var seen: [(CaptureTime, Double)] = []
        for _ in 0..<3 {
            let sample = try #require(await iterator.next())
            seen.append((sample.presentationTime, try Self.sharpness(sample)))
        }
        let synced = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setFocusModeLocked(lensPosition: 0.0) { synced.continuation.yield($0) }
        #expect(device.focusMode == .locked && device.lensPosition == 0)
        var syncIterator = synced.stream.makeAsyncIterator()
        let syncTime = try #require(await syncIterator.next())
        while seen.last.map({ $0.0 < syncTime }) ?? true {
            let sample = try #require(await iterator.next())
            seen.append((sample.presentationTime, try Self.sharpness(sample)))
        }
        let index = try #require(seen.firstIndex { $0.0 == syncTime })
        #expect(index > 0)
        #expect(seen[index - 1].1 > 200, "sharp before: \(seen[index - 1].1)")
        #expect(seen[index].1 < 20, "blurred at syncTime: \(seen[index].1)")

        // Continuous focus searches (contrast detect) and settles on the in-focus position.
        try device.setFocusMode(.continuousAutoFocus)
        var latest = try #require(await iterator.next())
        var searched = 0
        while searched < 3 || device.isAdjustingFocus {
            latest = try #require(await iterator.next())
            searched += 1
            try #require(searched < 90, "autofocus did not settle at \(device.lensPosition)")
        }
        latest = try #require(await iterator.next())
        #expect(abs(device.lensPosition - FocusState.inFocusPosition) <= 0.031, "\(device.lensPosition)")
        #expect(try Self.sharpness(latest) > 200)
        #expect(device.focusMode == .continuousAutoFocus)
    }

    @Test("focus needs the lock, a supported mode and a lens position in 0...1")
    func focusMisuse() throws {
        let device = CaptureDevice.find(virtual: .front)
        #expect(throws: CaptureError.notLocked(device: "virtual:front")) { try device.checked.setFocusModeLocked(lensPosition: 0.5) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(throws: CaptureError.outOfRange(name: "lens position", value: 1.5, range: 0...1)) {
            try device.checked.setFocusModeLocked(lensPosition: 1.5)
        }
        #expect(throws: CaptureError.outOfRange(name: "focus point of interest y", value: -0.1, range: 0...1)) {
            try device.setFocusPointOfInterest(CGPoint(x: 0.5, y: -0.1))
        }
        let test = CaptureDevice.find(virtual: .back)
        #expect(CaptureDevice.FocusMode.allCases.allSatisfy(test.isFocusModeSupported))
        #expect(test.isFocusPointOfInterestSupported && test.isSmoothAutoFocusSupported && test.isAutoFocusRangeRestrictionSupported)
    }
}
