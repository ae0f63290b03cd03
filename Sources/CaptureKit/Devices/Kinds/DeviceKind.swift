import GStreamerSwift

/// One kind of device (V4L2 cameras, microphones, …): which of the devices GstDeviceMonitor
/// reports are its own, and what each one is. The registry asks every kind in `DeviceKinds.all`
/// and dedupes what they find (`DeviceCandidate.sameCamera`, `precedence`), so a kind never
/// needs to know about the others.
protocol DeviceKind: Sendable {
    /// The GstDeviceMonitor class its devices are reported under ("Video/Source",
    /// "Audio/Source"); nil for a kind found only when named (files).
    var monitoredClass: String? { get }
    /// Describes a device a monitor reported, or nil when it is not this kind's (another
    /// provider's device, a node that is not a camera). Runs on the caller's thread or the
    /// monitor's bus thread; reads nothing but `found` and, for V4L2, the by-id links.
    func describe(_ found: MonitoredDevice) -> DeviceCandidate?
    /// The device a reference names in this kind's own terms (`file:clip.mp4`, `/dev/video0`,
    /// `virtual`, `screen`), or nil when the reference is not this kind's: its own object, or
    /// a candidate `registry.keep` makes one object per uniqueID while connected. Runs on the
    /// caller's thread; may read the device.
    /// - Throws: a typed error naming the reference, when it is this kind's but cannot be opened.
    func device(named reference: String, in registry: DeviceRegistry) throws(CaptureError) -> CaptureDevice?
    /// The devices this kind lists by itself rather than from a monitor (the virtual devices,
    /// the screen of `$DISPLAY`), in order, given what the monitors found. Runs on the caller's
    /// thread; may probe (a screen opens its display).
    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice]
    /// The devices each `CaptureContext` has of its own, made with its registry (the virtual
    /// cameras and microphone), in order; they share no state with another context's.
    func makeContextDevices() -> [CaptureDevice]
    /// Whether `CaptureDevice.default(for:)` may choose this kind's devices (never a screen).
    var mayBeDefault: Bool { get }
    /// Sets up what the device monitors need before they start, or start again (PipeWire: the
    /// connection the camera portal handed over, for its device provider). Runs on the caller's
    /// thread, with no monitor running.
    func prepareMonitoring()
}

extension DeviceKind {
    /// Found only when named or listed by the kind itself, never by a monitor.
    var monitoredClass: String? { nil }

    func describe(_ found: MonitoredDevice) -> DeviceCandidate? { nil }

    func device(named reference: String, in registry: DeviceRegistry) throws(CaptureError) -> CaptureDevice? { nil }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] { [] }

    func makeContextDevices() -> [CaptureDevice] { [] }

    var mayBeDefault: Bool { true }

    func prepareMonitoring() {}
}

/// What the monitors found, for the kinds that list devices of their own.
struct DeviceListing {
    /// Whether a hardware camera is connected (the virtual cameras then stand back).
    var hasHardwareCamera: Bool
    /// `CaptureDevice.listsVirtualDevices`.
    var listsVirtual: Bool
    /// The registry's context's own devices (`DeviceKind.makeContextDevices`).
    var contextDevices: [CaptureDevice]
}
