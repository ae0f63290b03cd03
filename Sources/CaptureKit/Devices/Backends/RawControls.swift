/// A device's own controls as a backend reads them (a V4L2 camera's, by ioctl): the rows
/// `CaptureDevice.controls()` lists, and the entries of the control report.
struct RawControls: Sendable {
    /// The AVFoundation capabilities as the device provides them, then its own controls.
    var descriptions: [CaptureDevice.ControlDescription]
    /// The device's own controls, for `ControlReport.v4l2Controls`.
    var report: [ControlReport.V4L2Control]
}
