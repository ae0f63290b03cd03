extension CaptureDevice {
    /// The device's calls in forms that throw a ``CaptureError`` naming the refused value,
    /// for new code: `try device.checked.setExposureModeCustom(duration: d, iso: 100)`.
    ///
    /// The AVFoundation-named calls on `CaptureDevice` itself never throw (AVFoundation's do not;
    /// a refusal is reported as `.CaptureConfigurationError`). Assignable properties keep a
    /// throwing `set…` method beside them as their checked form (`try device.setFocusMode(.locked)`).
    public struct Checked: Sendable {
        /// The device the calls change.
        public let device: CaptureDevice

        /// Sets exposure duration and ISO and switches to custom exposure. Pass
        /// `currentExposureDuration` / `currentISO` to keep one of them. Throws `notLocked`,
        /// `unsupported`, or `outOfRange` naming the value and the active format's range.
        ///
        /// `completionHandler` runs on a CaptureKit queue with the presentation time of the first
        /// frame exposed with the new settings, as exactly as the device allows:
        /// - the virtual camera: exactly that frame;
        /// - a V4L2 camera on a running session: the camera applies controls a few frames after
        ///   they are written and does not say which frame, so CaptureKit meters the frames and
        ///   gives the first one, presented after the write, whose brightness moved at least half
        ///   way (in stops) towards what the new exposure gives. A change too small to see (under
        ///   ¼ stop), or one the camera never shows (a clipped scene), gets the first frame begun
        ///   after the write, or the sixth frame after it, at the latest;
        /// - a device no session runs: zero, at once (the settings apply when it starts).
        public func setExposureModeCustom(duration: CaptureTime, iso: Float,
                                          completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
            try device.checkedSetExposureModeCustom(duration: duration, iso: iso, completionHandler: completionHandler)
        }

        /// Sets the exposure target bias (EV). In the auto modes the exposure follows it over the
        /// next frames; in custom mode only the metering (`exposureTargetOffset`) does.
        /// `completionHandler` gets the presentation time of the first frame metered against it.
        public func setExposureTargetBias(_ bias: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
            try device.checkedSetExposureTargetBias(bias, completionHandler: completionHandler)
        }

        /// Locks focus with the lens at `lensPosition` (0…1, or `currentLensPosition`).
        /// `completionHandler` gets the presentation time of the first frame taken at that
        /// position: exact on the virtual camera; on a running V4L2 camera, the first frame begun
        /// after the control write; zero when no session runs the device.
        public func setFocusModeLocked(lensPosition: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
            try device.checkedSetFocusModeLocked(lensPosition: lensPosition, completionHandler: completionHandler)
        }

        /// Locks white balance at `gains` (each normalised so the smallest is 1, then required to
        /// be at most `maxWhiteBalanceGain`), or the current gains. `completionHandler` gets the
        /// presentation time of the first frame balanced with them.
        public func setWhiteBalanceModeLocked(with gains: WhiteBalanceGains,
                                              completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
            try device.checkedSetWhiteBalanceModeLocked(with: gains, completionHandler: completionHandler)
        }

        /// Zooms smoothly to `factor` at `rate` powers of two per second (1: doubling each
        /// second), exponentially, frame by frame. A rate of 0 is `cancelVideoZoomRamp()`.
        public func ramp(toVideoZoomFactor factor: Double, withRate rate: Float) throws(CaptureError) {
            try device.checkedRamp(toVideoZoomFactor: factor, withRate: rate)
        }

        /// Slows a ramp under way to a stop rather than stopping it dead.
        public func cancelVideoZoomRamp() throws(CaptureError) {
            try device.checkedCancelVideoZoomRamp()
        }
    }

    /// The device's calls in forms that throw; see ``Checked``.
    public var checked: Checked { Checked(device: self) }
}
