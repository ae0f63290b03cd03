import GStreamerSwift

/// Which of libcamera's controls CaptureKit can drive on one camera: those `libcamerasrc` has a
/// property for (none before libcamera 0.4, which Debian 12 ships; AeEnable, ExposureTime,
/// AfMode, ColourGains, … from 0.4, Debian 13's) that the camera lists (`LibcameraCameraFacts`).
/// Decided at run time, so one build serves both. Everything else keeps the camera's own
/// automatic modes, with CaptureKit's metering and digital zoom, as `DeviceCapabilities.automaticOnly`.
struct LibcameraControls: Sendable, Equatable {
    /// The element's property names.
    let properties: Set<String>
    /// What the camera supports; nil where `cam` could not say (then no control is driven).
    let facts: LibcameraCameraFacts?

    /// Whether the element has `property` and the camera `control` (with `value`, for an
    /// enumerated one).
    func drives(_ property: String, _ control: String, value: String? = nil) -> Bool {
        properties.contains(property) && facts?.has(control, value: value) == true
    }

    /// Whether the element sets boolean controls as booleans. Before libcamera 0.5 it stored
    /// them as integers (libcamera bug 261), and a pipeline handler reading AeEnable or
    /// AwbEnable then aborts on a type assertion, so none is ever written to those versions.
    /// 0.5 fixed it and added the exposure-time and gain modes, by which it is recognised.
    var setsBooleans: Bool { properties.contains("exposure-time-mode") }
    /// Whether exposure time and gain are fixed through their modes (libcamera 0.5's
    /// ExposureTimeMode and AnalogueGainMode); before, a non-zero value fixes each and zero
    /// hands it back to auto exposure.
    var exposureModes: Bool {
        setsBooleans && drives("exposure-time-mode", "ExposureTimeMode") && drives("analogue-gain-mode", "AnalogueGainMode")
    }
    var exposureManual: Bool {
        drives("exposure-time", "ExposureTime") && drives("analogue-gain", "AnalogueGain") && (exposureModes || !setsBooleans)
    }
    var exposureBias: Bool { drives("exposure-value", "ExposureValue") }
    var focusContinuous: Bool { drives("af-mode", "AfMode", value: "AfModeContinuous") }
    var lens: Bool { drives("af-mode", "AfMode", value: "AfModeManual") && drives("lens-position", "LensPosition") }
    /// Auto white balance can be turned off, which manual gains need.
    var whiteBalanceSwitch: Bool { setsBooleans && drives("awb-enable", "AwbEnable") }
    var whiteBalanceManual: Bool { whiteBalanceSwitch && drives("colour-gains", "ColourGains") }
    var longExposureMode: Bool { drives("ae-exposure-mode", "AeExposureMode", value: "ExposureLong") }

    /// The camera's dioptre range for its lens (0 is infinity).
    var lensRange: ClosedRange<Double>? { lens ? facts?.controls["LensPosition"]?.range : nil }

    /// The capabilities these controls give, on top of the automatic camera's.
    var capabilities: DeviceCapabilities {
        var capabilities = DeviceCapabilities.automaticOnly
        func set(_ provision: DeviceCapabilities.Provision, _ list: DeviceCapability...) { for item in list { capabilities.provisions[item] = provision } }
        if exposureManual {
            set(.device, .exposureLocked, .exposureCustom, .exposureDuration, .iso)
            let durations = facts?.controls["ExposureTime"]?.range.map { $0.lowerBound / 1e6...$0.upperBound / 1e6 }
            let gains = facts?.controls["AnalogueGain"]?.range.map { max(1, $0.lowerBound) * 100...max(1, $0.upperBound) * 100 }
            if let durations, let gains { capabilities.exposureLimits = .init(duration: durations, iso: gains) }
        }
        if exposureBias {
            set(.device, .exposureTargetBias)
            capabilities.exposureTargetBiasRange = facts?.controls["ExposureValue"]?.range.map { Float($0.lowerBound)...Float($0.upperBound) }
        }
        if focusContinuous { set(.device, .focusContinuous) }
        if lensRange != nil {
            set(.device, .focusLocked, .lensPosition)
            // No AfTrigger property: a one-shot search is CaptureKit's contrast search over the lens.
            set(.software(.contrastDetectAutoFocus), .focusAutoOnce)
            if !focusContinuous { set(.software(.contrastDetectAutoFocus), .focusContinuous) }
            set(.software(.lensMoveSmoothing), .smoothAutoFocus)
        }
        if drives("af-range", "AfRange") && focusContinuous { set(.device, .autoFocusRangeRestriction) }
        if drives("af-speed", "AfSpeed") && focusContinuous { set(.device, .smoothAutoFocus) }
        if whiteBalanceManual { set(.device, .whiteBalanceLocked, .whiteBalanceGains) }
        if longExposureMode { set(.device, .lowLightBoost) }
        return capabilities
    }

    /// The controls of the camera `cameraID`, from the installed element and `cam` (which also
    /// gives the camera's Location and Model where the device provider does not, before 0.5.2).
    static func of(cameraID: String) -> LibcameraControls {
        LibcameraControls(properties: elementProperties, facts: LibcameraCameraFacts.read(cameraID: cameraID))
    }

    /// The installed `libcamerasrc`'s properties, read once.
    static let elementProperties: Set<String> = ElementFactory.propertyNames(of: "libcamerasrc") ?? []
}
