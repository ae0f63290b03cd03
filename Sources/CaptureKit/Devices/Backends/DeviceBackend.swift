import GStreamerSwift

/// What differs per kind of device, behind one protocol: what it captures and can do, the
/// source elements for a format, and what a running source of it needs installed. A
/// `CaptureDevice` keeps the AVFoundation surface and one backend; it never holds GStreamer
/// elements: control changes reach the running source through `RunningSourceControl`.
protocol DeviceBackend: Sendable {
    /// What the device captures.
    var mediaType: MediaType { get }
    /// How CaptureKit reaches the device (`CaptureDevice.route`).
    var route: String { get }
    /// What the device can do, per control, and what CaptureKit does for it in software.
    var capabilities: DeviceCapabilities { get }
    /// One of CaptureKit's own devices (virtual camera or microphone), which stand in where no
    /// hardware exists and are listed after it.
    var isBuiltIn: Bool { get }
    /// The virtual sensor renders the device's frames, so every camera control is simulated
    /// (on a frame boundary, with exact sync times).
    var simulatesSensor: Bool { get }
    /// CaptureKit's auto-control loop meters the device's frames (not for the benchmarks'
    /// test pattern, nor for microphones).
    var runsAutoControl: Bool { get }
    /// The V4L2 device node, for devices that have one (controls by ioctl, access checks).
    var devicePath: String? { get }
    /// The elements before the source's tee for `format`, named `prefix_…`.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element]
    /// Installs what a source of this device needs on its bin before it runs (the virtual
    /// sensor and its faults, the virtual microphone's signal); returns the sensor, if any.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> VirtualCameraSensor?
}

extension DeviceBackend {
    var isBuiltIn: Bool { false }
    var capabilities: DeviceCapabilities { .none }
    var simulatesSensor: Bool { false }
    var runsAutoControl: Bool { mediaType == .video }
    var devicePath: String? { nil }
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> VirtualCameraSensor? { nil }
}
