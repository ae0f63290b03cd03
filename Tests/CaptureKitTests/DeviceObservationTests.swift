import Foundation
import Observation
import Testing
@testable import CaptureKit

@Suite("Device observation", .ownDevices, .serialized, .timeLimit(.minutes(1)))
struct DeviceObservationTests {
    @Test("Observation reports changes made through another handle")
    func observation() async throws {
        let device = CaptureDevice.find(virtual: .front)
        let other = try #require(CaptureDevice(uniqueID: "virtual:front", context: TestContext.current))
        let changed = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = device.lensPosition
        } onChange: {
            changed.continuation.yield()
        }
        try other.lockForConfiguration()
        defer {
            try? other.setFocusMode(.continuousAutoFocus)
            other.unlockForConfiguration()
        }
        try other.checked.setFocusModeLocked(lensPosition: 0.25)
        var iterator = changed.stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(device.lensPosition == 0.25)
    }

    @Test("values(of:) yields the current value, then each change, including ones the sensor makes")
    func values() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let stream = device.values(of: \.videoZoomFactor)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        try device.lockForConfiguration()
        defer {
            try? device.setVideoZoomFactor(1)
            device.unlockForConfiguration()
        }
        try device.setVideoZoomFactor(2)
        #expect(await iterator.next() == 2)
        try device.setVideoZoomFactor(3)
        #expect(await iterator.next() == 3)
        // A running session meters exposure on the streaming thread; the offset's observers hear of it.
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [VideoDataOutput()])
        let offsets = device.values(of: \.exposureTargetOffset)
        var offsetIterator = offsets.makeAsyncIterator()
        _ = await offsetIterator.next()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 240), iso: CaptureDevice.currentISO)
        var offset = try #require(await offsetIterator.next())
        for _ in 0..<10 where abs(offset + 1) > 0.05 { offset = try #require(await offsetIterator.next()) }
        #expect(abs(offset + 1) <= 0.05, "half the light: -1 EV")
        try device.setExposureMode(.continuousAutoExposure)
    }
}
