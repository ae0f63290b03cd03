/// Carries out a kind of device's control changes (`ControlChange`): a V4L2 camera writes its
/// controls, libcamera sets its element's properties; the virtual camera has none, its sensor
/// paints what the device's state holds.
///
/// Called on the thread that changes a control (a user's, under the device's configuration
/// lock, or the device's `loopWrites` queue for the auto-control loop's steps), never on a streaming
/// thread and never with the device's state lock held: a write takes the source element's
/// object lock, which its streaming thread also takes.
protocol DeviceController: Sendable {
    /// Carries out `change` on `device`: on its running source at once, and for its next start
    /// (`CaptureDevice.writeSourceControls`). Returns the running time of the write, nil when no
    /// source runs or the change needed nothing written.
    func apply(_ change: ControlChange, to device: CaptureDevice) throws(CaptureError) -> CaptureTime?
    /// The exposure the device runs with now, where its own automatic exposure moves it
    /// (each nil where the device cannot say): what stills' EXIF and a bracket start from.
    func exposureNow(of device: CaptureDevice) -> (duration: CaptureTime?, iso: Float?)
    /// Whether the device runs automatic modes of its own whose values can be read back
    /// (`autoValuesNow`), so a running source polls them (`AutoValueReadback`).
    var readsAutoValues: Bool { get }
    /// What the device's own automatic modes hold now, read from it; nil where nothing could be
    /// read. Called on the readback's queue, at the frame rate.
    func autoValuesNow(of device: CaptureDevice) -> AutoValues?
}

extension DeviceController {
    func exposureNow(of device: CaptureDevice) -> (duration: CaptureTime?, iso: Float?) { (nil, nil) }
    var readsAutoValues: Bool { false }
    func autoValuesNow(of device: CaptureDevice) -> AutoValues? { nil }
}
