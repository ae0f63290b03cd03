/// The running source a device's control changes are handed to: registered by the runtime
/// while a session runs the device, so the device itself never holds GStreamer elements.
protocol RunningSourceControl: AnyObject, Sendable {
    /// Writes V4L2 controls (`extra-controls` text) to the running source; returns the running
    /// time at which they were written.
    func writeV4L2Controls(_ controls: String) throws(CaptureError) -> CaptureTime?
    /// Sets the digital-zoom crop margins of a camera that zooms in the pipeline.
    func setCrop(_ crop: DigitalZoom.Crop) throws(CaptureError)
}
