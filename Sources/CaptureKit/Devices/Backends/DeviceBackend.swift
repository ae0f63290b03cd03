import GStreamerSwift

/// What differs per kind of device, behind one protocol: what it captures and can do, how its
/// control changes are carried out, the source elements for a format, and what a running source
/// of it needs installed. A `CaptureDevice` keeps the AVFoundation surface and one backend; its
/// capability properties read `capabilities` and hand changes to `controller`, and never ask
/// what kind of device it is. It holds no GStreamer elements: changes reach the running source
/// through `RunningSourceControl`.
protocol DeviceBackend: Sendable {
    /// What the device captures.
    var mediaType: MediaType { get }
    /// How CaptureKit reaches the device (`CaptureDevice.route`).
    var route: String { get }
    /// What the device can do, per control, and what CaptureKit does for it in software.
    var capabilities: DeviceCapabilities { get }
    /// Carries out control changes; nil where nothing is written (a sensor that paints from the
    /// device's state, a device without controls).
    var controller: (any DeviceController)? { get }
    /// One of CaptureKit's own devices (virtual camera or microphone), which stand in where no
    /// hardware exists and are listed after it.
    var isBuiltIn: Bool { get }
    /// Whether the device exists in this process only (the virtual cameras and microphone, one
    /// set per context), so that its configuration lock is this process's alone.
    var isProcessLocal: Bool { get }
    /// What kind of device it is (CaptureDevice.DeviceType).
    var deviceType: CaptureDevice.DeviceType { get }
    /// The camera model written as EXIF Model, where it is not the device's name.
    var exifModel: String? { get }
    /// Whether the device's stream ends by itself (the benchmarks' bounded test pattern): its
    /// end of stream ends the session. Any other source's end of stream follows a failure
    /// (an unplugged camera) and is dropped where it leaves the source: the interruption deals
    /// with the failure, and the session and its outputs run on.
    var endsStream: Bool { get }
    /// Whether the source paces itself at its frame rate (every camera). One that is not (the
    /// benchmarks' test pattern at full speed) waits for outputs that keep every frame.
    var isLive: Bool { get }
    /// The exposure the device holds when it is found (or reset), where it says.
    var initialExposure: ExposureState? { get }
    /// Why the device cannot be opened now (a node without permission), or nil.
    func accessProblem() -> CaptureError?
    /// How much of a shared link the device takes running `format` at `frameRate`
    /// (`CaptureSession.hardwareCost`).
    func hardwareLoad(device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) -> HardwareLoad
    /// Whether CaptureKit draws or decodes the device's frames on the processors (a virtual
    /// camera, a screen, a file), so that such devices compete for processor time.
    var isDrawnInSoftware: Bool { get }
    /// Whether another process has the device open now (AVFoundation's
    /// `isInUseByAnotherApplication`); false where that cannot be known.
    var isInUseByAnotherProcess: Bool { get }
    /// Whether the device has raw V4L2 controls (`setV4L2Control`, `controls()`).
    var hasRawControls: Bool { get }
    /// The device's own controls, read now, as `controls()` and the control report show
    /// them; nil where it has none (`controls()` then lists CaptureKit's view of the device).
    func rawControls() throws(CaptureError) -> RawControls?
    /// Sets control values (`CaptureDevice.writeSourceControls`) on the running source element.
    func write(_ controls: [(name: String, value: String)], to source: Element) throws(GStreamerError)
    /// The elements before the source's tee for `format`, named `prefix_…`.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element]
    /// Installs what a source of this device needs on its bin before it runs (the virtual
    /// sensor and its faults, the virtual microphone's signal); returns the painter of its frames, if it paints them.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)?
}

extension DeviceBackend {
    var capabilities: DeviceCapabilities { .none }
    var controller: (any DeviceController)? { nil }
    var isBuiltIn: Bool { false }
    var isProcessLocal: Bool { false }
    var exifModel: String? { nil }
    var endsStream: Bool { false }
    var isLive: Bool { true }
    var initialExposure: ExposureState? { nil }
    func accessProblem() -> CaptureError? { nil }
    var isDrawnInSoftware: Bool { false }
    /// Processor time for a device drawn in software, else a link of its own.
    func hardwareLoad(device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) -> HardwareLoad {
        isDrawnInSoftware ? .processors(format: format, frameRate: frameRate) : .ownLink(device: device, format: format, frameRate: frameRate)
    }
    var isInUseByAnotherProcess: Bool { false }
    var hasRawControls: Bool { false }
    func rawControls() throws(CaptureError) -> RawControls? { nil }
    /// Each control as a property of the element (values in GStreamer's serialization).
    func write(_ controls: [(name: String, value: String)], to source: Element) throws(GStreamerError) {
        for (name, value) in controls { try source.set(name, .serialized(value)) }
    }
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? { nil }
}
