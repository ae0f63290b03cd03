/// What one device can do, per capability of SPEC.md's device-control table, in the same terms
/// for every kind: the device does it, CaptureKit does it in software (digital zoom, the
/// exposure and gray-world loops, contrast autofocus), or it is unsupported.
///
/// `CaptureDevice`'s capability properties (`isExposureModeSupported`, `hasTorch`,
/// `isVideoHDRSupported`, …) read this table and nothing else about the kind of device.
struct DeviceCapabilities: Sendable, Equatable {
    /// How one capability is provided.
    enum Provision: Sendable, Equatable, CustomStringConvertible {
        /// By the device (its controls, or the virtual sensor).
        case device
        /// By CaptureKit, from the frames or in the pipeline.
        case software(SoftwareFeature)
        /// Not at all.
        case unsupported

        var isSupported: Bool { self != .unsupported }

        /// "device", "software(digitalZoom)", "unsupported".
        var description: String {
            switch self {
            case .device: "device"
            case .software(let feature): "software(\(feature.rawValue))"
            case .unsupported: "unsupported"
            }
        }
    }

    /// Every capability's provision; missing ones are unsupported.
    var provisions: [DeviceCapability: Provision]
    /// The lens's f-number where the device reports one (`CaptureDevice.lensAperture`), else 0.
    var lensAperture: Float = 0

    /// A device that offers none of the controls (a screen, a microphone).
    static let none = DeviceCapabilities(provisions: [:])

    subscript(capability: DeviceCapability) -> Provision { provisions[capability] ?? .unsupported }

    /// Whether the device itself provides `capability`.
    func byDevice(_ capability: DeviceCapability) -> Bool { self[capability] == .device }

    /// Whether CaptureKit provides `capability` through `feature`.
    func bySoftware(_ capability: DeviceCapability, _ feature: SoftwareFeature) -> Bool { self[capability] == .software(feature) }

    /// A camera whose automatic exposure and white balance are its own, left alone (a file, a
    /// camera another program shares through PipeWire): CaptureKit meters its frames and zooms
    /// digitally, and offers no manual mode.
    static let automaticOnly = DeviceCapabilities(provisions: [
        .exposureContinuous: .device, .whiteBalanceContinuous: .device, .zoom: .software(.digitalZoom),
        .exposureTargetOffset: .software(.exposureMetering), .grayWorldGains: .software(.grayWorld),
        .subjectAreaChangeMonitoring: .software(.subjectAreaChangeDetector),
    ])
}
