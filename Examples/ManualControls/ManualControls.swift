// Manual controls (AVCaptureDevice's custom exposure, locked focus, locked white balance) on the
// virtual camera: each setting's completion handler gives the time of the first frame made with
// it, and the example measures those frames. Exits 0 when quadrupling the ISO brightened the
// frames and each setting reads back as set, 1 otherwise.
//
// Pipeline it compiles to:
//   videotestsrc (virtual camera) ! capsfilter ! tee
//     tee. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! videoscale
//          ! capsfilter video/x-raw,format=GRAY8,width=176,height=144 ! appsink
//
// Run: swift run ManualControlsExample
import CaptureKit
import Foundation

/// A session's frames, read in order.
struct Frames {
    var iterator: AsyncStream<SampleBuffer>.Iterator

    /// The mean luma of the first gray frame presented at or after `time`.
    mutating func meanLuma(from time: CaptureTime) async throws -> Double {
        while let frame = await iterator.next() {
            guard frame.presentationTime.seconds >= time.seconds else { continue }
            return try frame.withPlanes { planes in
                let luma = planes[0], width = frame.formatDescription.width
                var sum = 0
                for row in 0..<luma.height {
                    for column in 0..<width { sum += Int(luma.bytes[row * luma.bytesPerRow + column]) }
                }
                return Double(sum) / Double(width * luma.height)
            }
        }
        check(false, "the frames ended")
        return 0
    }
}

/// Fails the example with a message.
func check(_ condition: Bool, _ message: String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("failed: \(message)\n".utf8))
    exit(1)
}

@main
struct ManualControls {
    static func main() async throws {
        let device = try CaptureDevice.find("virtual")
        let session = CaptureSession()
        try session.setSessionPreset(.cif352x288)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8, width: 176, height: 144))
        try session.checked.addOutput(output)
        var frames = Frames(iterator: output.sampleBuffers(bufferingNewest: 64).makeAsyncIterator())
        try await session.checked.startRunning()

        // Each setter's completion handler gets the presentation time of the first frame made with it.
        let (applied, appliedContinuation) = AsyncStream<CaptureTime>.makeStream()
        let done: @Sendable (CaptureTime) -> Void = { appliedContinuation.yield($0) }
        var appliedTimes = applied.makeAsyncIterator()

        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }

        // Exposure: 1/480 s at ISO 100, then the same at ISO 400 (two stops more light).
        let duration = CaptureTime(value: 1, timescale: 480)
        try device.checked.setExposureModeCustom(duration: duration, iso: 100, completionHandler: done)
        let dim = try await frames.meanLuma(from: appliedTimes.next() ?? .zero)
        try device.checked.setExposureModeCustom(duration: duration, iso: 400, completionHandler: done)
        let bright = try await frames.meanLuma(from: appliedTimes.next() ?? .zero)
        print(String(format: "exposure 1/480 s: mean luma %.1f at ISO 100 and %.1f at ISO 400", dim, bright))
        check(device.exposureMode == .custom && device.iso == 400 && device.exposureDuration.seconds == duration.seconds, "custom exposure reads back")
        check(bright > dim * 1.5, "ISO 400 frames brighter than ISO 100 frames")

        // Focus: the lens locked at 0.25 (0 is the nearest position, 1 the farthest).
        try device.checked.setFocusModeLocked(lensPosition: 0.25, completionHandler: done)
        _ = await appliedTimes.next()
        print("focus locked at lens position \(device.lensPosition)")
        check(device.focusMode == .locked && device.lensPosition == 0.25, "locked focus reads back")

        // White balance: locked for tungsten light, 3200 K.
        let gains = device.deviceWhiteBalanceGains(for: .init(temperature: 3200, tint: 0))
        try device.checked.setWhiteBalanceModeLocked(with: gains, completionHandler: done)
        _ = await appliedTimes.next()
        let balanced = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
        print(String(format: "white balance locked at %.0f K (gains r %.2f g %.2f b %.2f)", balanced.temperature,
                     device.deviceWhiteBalanceGains.redGain, device.deviceWhiteBalanceGains.greenGain, device.deviceWhiteBalanceGains.blueGain))
        check(device.whiteBalanceMode == .locked && abs(balanced.temperature - 3200) < 50, "locked white balance reads back")

        await session.checked.stopRunning()
        print("manual controls applied")
    }
}
