@_spi(Benchmark) import CaptureKit
import Foundation

/// Frames from a control change to the first frame that carries it (its syncTime), on the
/// virtual camera at 640x480@30: exposure, lens position and white balance, 20 changes each,
/// requested at every phase of the frame interval. Then the auto modes' convergence in frames:
/// auto exposure after the scene light steps ±1.5 EV, white balance after the light steps
/// between 3200 K and 6500 K, and autofocus (one-shot and continuous) from the near end.
enum ControlsBenchmark {
    static func run() async throws -> [String: Double] {
        let device = try CaptureDevice.find("virtual")
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try session.checked.addOutput(output)
        var frames = output.sampleBuffers(bufferingNewest: 1).makeAsyncIterator()
        try await session.checked.startRunning()
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
                case 0: try? device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: index % 2 == 0 ? 60 : 120),
                                                          iso: CaptureDevice.currentISO, completionHandler: done)
                case 1: try? device.checked.setFocusModeLocked(lensPosition: index % 2 == 0 ? 0.2 : 0.6, completionHandler: done)
                default: try? device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: index % 2 == 0 ? 1 : 2, blueGain: 3),
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
        await session.checked.stopRunning()
        var figures = ["p50_frames": Processes.percentile(delays, 0.5), "p99_frames": Processes.percentile(delays, 0.99),
                       "max_frames": delays.max() ?? 0]
        for (name, value) in try await convergence(device) { figures[name] = value }
        return figures
    }

    /// Frames each auto mode takes to settle after a step, counted on delivered frames (an upper
    /// bound: the loop decides on the frame before it is delivered). Median and worst of 6 steps.
    static func convergence(_ device: CaptureDevice) async throws -> [String: Double] {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try session.checked.addOutput(output)
        var frames = output.sampleBuffers(bufferingNewest: 64).makeAsyncIterator()
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        for _ in 0..<5 { _ = await frames.next() }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        /// Frames until `settled` holds (checked after each frame, from the second on).
        func count(_ settled: () -> Bool) async -> Double {
            var count = 0
            repeat {
                _ = await frames.next()
                count += 1
            } while (count < 2 || !settled()) && count < 300
            return Double(count)
        }
        var exposure: [Double] = [], balance: [Double] = [], oneShot: [Double] = [], continuous: [Double] = []
        for step in 0..<6 {
            device.setVirtualSceneLight(ev: step % 2 == 0 ? -1.5 : 0)
            exposure.append(await count { !device.isAdjustingExposure && abs(device.exposureTargetOffset) <= 0.1 })
            device.setVirtualIlluminant(temperature: step % 2 == 0 ? 6500 : 3200)
            balance.append(await count { !device.isAdjustingWhiteBalance })
            try device.checked.setFocusModeLocked(lensPosition: 0.05)
            _ = await frames.next()
            try device.setFocusMode(step % 2 == 0 ? .autoFocus : .continuousAutoFocus)
            let focus = await count { !device.isAdjustingFocus }
            if step % 2 == 0 { oneShot.append(focus) } else { continuous.append(focus) }
        }
        device.setVirtualSceneLight(ev: 0)
        device.setVirtualIlluminant(temperature: 3200)
        try device.setFocusMode(.continuousAutoFocus)
        return ["ae_p50_frames": Processes.percentile(exposure, 0.5), "ae_max_frames": exposure.max() ?? 0,
                "awb_p50_frames": Processes.percentile(balance, 0.5), "awb_max_frames": balance.max() ?? 0,
                "af_p50_frames": Processes.percentile(oneShot + continuous, 0.5), "af_max_frames": (oneShot + continuous).max() ?? 0]
    }
}
