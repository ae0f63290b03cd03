extension CaptureDevice {
    /// Sets exposure duration and ISO and switches to custom exposure, as AVFoundation does: it
    /// does not throw. A refused change (the device not locked, custom exposure unsupported, a
    /// duration or ISO outside the active format's range) leaves the exposure as it was, is
    /// logged and is posted as `.CaptureConfigurationError`, and `completionHandler` is not
    /// called. ``Checked/setExposureModeCustom(duration:iso:completionHandler:)`` throws instead.
    ///
    /// A duration longer than the frame interval lengthens the frame interval to it, as in
    /// AVFoundation (up to `activeFormat.maxExposureDuration`). `completionHandler` runs on a
    /// CaptureKit queue with the presentation time of the first frame exposed with the new
    /// settings (see ``Checked/setExposureModeCustom(duration:iso:completionHandler:)`` for how
    /// exactly each kind of device knows it).
    public func setExposureModeCustom(duration: CaptureTime, iso: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) {
        reportingFailure(of: "setExposureModeCustom", "(duration: \(duration), iso: \(iso))") { () throws(CaptureError) in
            try checkedSetExposureModeCustom(duration: duration, iso: iso, completionHandler: completionHandler)
        }
    }

    /// Sets the exposure target bias (EV) without throwing; a refused bias is reported as
    /// `.CaptureConfigurationError` and leaves the bias unchanged.
    /// ``Checked/setExposureTargetBias(_:completionHandler:)`` throws instead.
    public func setExposureTargetBias(_ bias: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) {
        reportingFailure(of: "setExposureTargetBias", bias) { () throws(CaptureError) in
            try checkedSetExposureTargetBias(bias, completionHandler: completionHandler)
        }
    }

    /// Locks focus with the lens at `lensPosition` (0…1, or `currentLensPosition`) without
    /// throwing; a refused position is reported as `.CaptureConfigurationError`.
    /// ``Checked/setFocusModeLocked(lensPosition:completionHandler:)`` throws instead.
    public func setFocusModeLocked(lensPosition: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) {
        reportingFailure(of: "setFocusModeLocked", lensPosition) { () throws(CaptureError) in
            try checkedSetFocusModeLocked(lensPosition: lensPosition, completionHandler: completionHandler)
        }
    }

    /// Locks white balance at `gains` (or `currentWhiteBalanceGains`) without throwing; refused
    /// gains are reported as `.CaptureConfigurationError`.
    /// ``Checked/setWhiteBalanceModeLocked(with:completionHandler:)`` throws instead.
    public func setWhiteBalanceModeLocked(with gains: WhiteBalanceGains, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) {
        reportingFailure(of: "setWhiteBalanceModeLocked", gains) { () throws(CaptureError) in
            try checkedSetWhiteBalanceModeLocked(with: gains, completionHandler: completionHandler)
        }
    }

    /// Zooms smoothly to `factor` at `rate` powers of two per second, without throwing.
    /// ``Checked/ramp(toVideoZoomFactor:withRate:)`` throws instead.
    public func ramp(toVideoZoomFactor factor: Double, withRate rate: Float) {
        reportingFailure(of: "ramp(toVideoZoomFactor:withRate:)", "(\(factor), \(rate))") { () throws(CaptureError) in
            try checkedRamp(toVideoZoomFactor: factor, withRate: rate)
        }
    }

    /// Slows a zoom ramp under way to a stop, without throwing.
    /// ``Checked/cancelVideoZoomRamp()`` throws instead.
    public func cancelVideoZoomRamp() {
        reportingFailure(of: "cancelVideoZoomRamp", "()") { () throws(CaptureError) in try checkedCancelVideoZoomRamp() }
    }
}
