/// A control change, in AVFoundation's terms, that a device's controller carries out
/// (`DeviceController`). The device's state already holds the settings the change gives.
enum ControlChange: Sendable, Hashable {
    /// An exposure mode. Where CaptureKit's exposure loop runs the automatic modes, the device
    /// is held manual at the loop's values.
    case exposureMode(CaptureDevice.ExposureMode)
    /// A manual exposure: custom mode, a step of the exposure loop, or a bracket image.
    case exposure(duration: CaptureTime, iso: Float)
    /// The bias the device's own auto exposure aims at, in EV.
    case exposureTargetBias(Float)
    /// A focus mode. Where CaptureKit's contrast search drives the lens, the device is held at
    /// manual focus.
    case focusMode(CaptureDevice.FocusMode)
    /// The lens position, 0 (far) … 1 (near), with focus already locked.
    case lensPosition(Float)
    case autoFocusRangeRestriction(CaptureDevice.AutoFocusRangeRestriction)
    /// Smooth (slower) lens moves of the device's own autofocus.
    case smoothAutoFocus(Bool)
    /// A white-balance mode. Where CaptureKit's gray-world loop runs the automatic modes, the
    /// device is held at manual gains.
    case whiteBalanceMode(CaptureDevice.WhiteBalanceMode)
    /// Locked white-balance gains.
    case whiteBalanceGains(CaptureDevice.WhiteBalanceGains)
    /// The zoom factor, where the device zooms itself (not digital zoom in the pipeline).
    case zoom(Double)
    /// The torch at `level` (0 puts it out).
    case torch(level: Float)
    /// The flash fired for a still.
    case flash
    /// Low-light boost allowed or not.
    case lowLightBoost(allowed: Bool)
    case videoHDR(Bool)
}
