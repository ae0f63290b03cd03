/// The running source a device's control changes are handed to: registered by the runtime
/// while a session runs the device, so the device itself never holds GStreamer elements.
protocol RunningSourceControl: AnyObject, Sendable {
    /// Sets control values on the running source element, as the device's backend writes them
    /// (V4L2 `extra-controls`, libcamera properties); returns the running time at which they were
    /// written.
    func writeControls(_ controls: [(name: String, value: String)]) throws(CaptureError) -> CaptureTime?
    /// Reads a control value back from the running source element (libcamera reports what each
    /// frame was taken with); nil where it cannot.
    func readControl(_ name: String) -> String?
    /// Sets the digital-zoom crop margins of a camera that zooms in the pipeline.
    func setCrop(_ crop: DigitalZoom.Crop) throws(CaptureError)
    /// Called when the session stops running the source: work it does beside the stream ends.
    func stopped()
}

extension RunningSourceControl {
    func readControl(_ name: String) -> String? { nil }
    func stopped() {}
}
