import Dispatch

extension CaptureDevice {
    /// The rate the device's running source delivers frames at now (the caps rate): 1 /
    /// `activeVideoMinFrameDuration`, or slower, down to 1 / `activeVideoMaxFrameDuration`,
    /// while the exposure is longer than the shortest frame (see `FramePacing`).
    var pacedFrameRate: Double { readState(\.pacedFrameRate) }

    /// Tells the sessions that run the device to re-pace their source (a live caps change)
    /// when auto exposure moved the pace from `before`.
    func paceChanged(from before: Double) {
        guard abs(pacedFrameRate - before) > 1e-6 else { return }
        // Off the streaming thread that metered the change, one at a time (the device's own queue).
        state.pacing.async { CaptureSession.deviceFormatChosen(self, formatChanged: false) }
    }
}

extension CaptureDevice.DeviceState {
    /// The rate between the frame-duration limits that holds the exposure in force.
    var pacedFrameRate: Double {
        let fastest = activeFrameRate ?? activeFormat.defaultFrameRate
        let slowest = maxFrameDuration.map { 1 / $0.seconds } ?? fastest
        return FramePacing(fastest: fastest, slowest: min(slowest, fastest))
            .rate(exposure: exposure.duration.seconds, ranges: activeFormat.videoSupportedFrameRateRanges)
    }

    /// The longest exposure the frame-duration limits allow: `activeVideoMaxFrameDuration`.
    var longestFrameDuration: Double {
        maxFrameDuration?.seconds ?? 1 / (activeFrameRate ?? activeFormat.defaultFrameRate)
    }
}
