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
    /// The device a reference names in this kind's own terms (`file:clip.mp4`), or nil when
    /// the reference is not this kind's. Runs on the caller's thread; may read the device.
    /// - Throws: a typed error naming the reference, when it is this kind's but cannot be opened.
    func resolve(_ reference: String) throws(CaptureError) -> DeviceCandidate?
}

extension DeviceKind {
    func resolve(_ reference: String) throws(CaptureError) -> DeviceCandidate? { nil }
}
