/// Every kind of device the registry asks, in the order their devices are listed. Adding a
/// kind is its folder and one line here.
enum DeviceKinds {
    static let all: [any DeviceKind] = [
        V4L2Kind(),
        PipeWireKind(),
        LibcameraKind(),
        MicrophoneKind(),
        FileKind(),
    ]

    /// The kinds whose devices a monitor of `deviceClass` reports.
    static func monitoring(_ deviceClass: String) -> [any DeviceKind] {
        all.filter { $0.monitoredClass == deviceClass }
    }

    /// The candidate the first kind resolves `reference` to; nil when no kind claims it.
    static func resolve(_ reference: String) throws(CaptureError) -> DeviceCandidate? {
        for kind in all {
            if let candidate = try kind.resolve(reference) { return candidate }
        }
        return nil
    }
}
