import CaptureKit
import Foundation

/// Frames from a control change to the first frame that carries it (its syncTime), on the
/// virtual camera at 640x480@30: exposure, lens position and white balance, 20 changes each,
/// requested at every phase of the frame interval.
enum ControlsBenchmark {
    static func run() async throws -> [String: Double] {
        let device = try CaptureDevice.find("virtual")
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try session.addOutput(output)
        var frames = output.sampleBuffers(bufferingNewest: 1).makeAsyncIterator()
        try await session.startRunning()
        _ = await frames.next()
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let frame = 1.0 / 30
        var delays: [Double] = []
        for index in 0..<60 {
            try await Task.sleep(for: .milliseconds(7 + (index * 11) % 30))
            let start = DispatchTime.now().uptimeNanoseconds
            let _: CaptureTime = await withCheckedContinuation { continuation in
                let done: @Sendable (CaptureTime) -> Void = { continuation.resume(returning: $0) }
                switch index % 3 {
                case 0: try? device.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: index % 2 == 0 ? 60 : 120),
                                                          iso: CaptureDevice.currentISO, completionHandler: done)
                case 1: try? device.setFocusModeLocked(lensPosition: index % 2 == 0 ? 0.2 : 0.6, completionHandler: done)
                default: try? device.setWhiteBalanceModeLocked(deviceWhiteBalanceGains: .init(redGain: 1, greenGain: index % 2 == 0 ? 1 : 2, blueGain: 3),
                                                               completionHandler: done)
                }
            }
            // From the call to the completion handler (which gets the syncTime of the first frame
            // carrying the change), in frame intervals: an upper bound on frames to syncTime.
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            delays.append(elapsed / frame)
        }
        try device.setExposureMode(.continuousAutoExposure)
        try device.setFocusMode(.continuousAutoFocus)
        try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
        await session.stopRunning()
        return ["p50_frames": Processes.percentile(delays, 0.5), "p99_frames": Processes.percentile(delays, 0.99),
                "max_frames": delays.max() ?? 0]
    }
}
