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

    /// How the frame that carries a control change is found.
    enum ChangeTiming: Sendable, Equatable {
        /// The source paints the settings into its frames (the virtual sensor): the first frame
        /// painted with a change is known exactly, and the auto-control loop changes the
        /// device's settings itself (its HDR and low-light boost decisions included).
        case painted
        /// The device applies controls written to it on a frame of its choosing: CaptureKit
        /// meters the frames after the write (`ControlChangeMatcher`).
        case metered
    }

    /// Every capability's provision; missing ones are unsupported.
    var provisions: [DeviceCapability: Provision]
    /// The lens's f-number where the device reports one (`CaptureDevice.lensAperture`), else 0.
    var lensAperture: Float = 0
    /// How the frame carrying a change is found.
    var timing = ChangeTiming.metered
    /// Whether CaptureKit's auto-control loop meters the frames (not a screen's, nor the
    /// benchmarks' test pattern's).
    var metersFrames = true
    /// The exposure durations (seconds) and ISOs the device's controls allow; nil where the
    /// active format states them (the virtual sensor).
    var exposureLimits: ExposureLimits?
    /// Whether an exposure is also held to the longest frame duration (a sensor whose exposure
    /// paces its frames; a camera's controls allow what they allow).
    var exposureLimitedByFrameDuration = false
    /// The EV range of the device's own exposure bias control, where it has one.
    var exposureTargetBiasRange: ClosedRange<Float>?
    /// The largest zoom factor of the device's own zoom, where it zooms optically; nil where the
    /// active format's digital zoom applies.
    var maxZoomFactor: Double?

    /// Exposure durations (seconds) and ISOs.
    struct ExposureLimits: Sendable, Equatable {
        var duration: ClosedRange<Double>
        var iso: ClosedRange<Double>
    }

    /// A device that offers none of the controls (a screen, a microphone), and whose frames are
    /// not metered.
    static let none = DeviceCapabilities(provisions: [:], metersFrames: false)

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
