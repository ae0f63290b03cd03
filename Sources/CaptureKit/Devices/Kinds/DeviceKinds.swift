/// Every kind of device the registry asks, in the order their devices are listed (monitored
/// devices first, in the order found; then each kind's own). Adding a kind is its folder and
/// one line here.
enum DeviceKinds {
    static let all: [any DeviceKind] = [
        V4L2Kind(),
        PipeWireKind(),
        LibcameraKind(),
        MicrophoneKind(),
        FileKind(),
        VirtualCameraKind(),
        ScreenKind(),
        VirtualMicrophoneKind(),
    ]

    /// The kinds whose devices a monitor of `deviceClass` reports.
    static func monitoring(_ deviceClass: String) -> [any DeviceKind] {
        all.filter { $0.monitoredClass == deviceClass }
    }

    /// The device the first kind that claims `reference` names, kept by `registry`; nil when
    /// no kind claims it.
    static func device(named reference: String, in registry: DeviceRegistry) throws(CaptureError) -> CaptureDevice? {
        for kind in all {
            if let device = try kind.device(named: reference, in: registry) { return device }
        }
        return nil
    }

    /// The devices the kinds list by themselves, in the kinds' order; only those that may be
    /// the default when `defaultsOnly`.
    static func ownDevices(_ listing: DeviceListing, defaultsOnly: Bool) -> [CaptureDevice] {
        all.filter { !defaultsOnly || $0.mayBeDefault }.flatMap { $0.ownDevices(listing) }
    }
}
