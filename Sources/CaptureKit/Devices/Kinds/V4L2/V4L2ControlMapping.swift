import CaptureKitV4L2

/// How each device-control capability of SPEC.md ("Device controls") maps onto one V4L2
/// camera's controls: through which controls (with their ranges and the values that select a
/// mode), computed in software by CaptureKit, or not at all.
///
/// Controls are recognised by their standard control id and by name, in today's kernel spelling
/// and in the names older kernels' uvcvideo gave them ("exposure_auto", "Exposure (Absolute)",
/// "focus_auto", "white_balance_temperature_auto", …), so tables from old `v4l2-ctl` output
/// without ids map too. Inactive controls (e.g. exposure time while auto exposure is on) are
/// mapped like active ones; their flag is kept in the control for the runtime to read.
struct V4L2ControlMapping: Equatable, Sendable {
    typealias Capability = DeviceCapability
    typealias SoftwareFeature = CaptureKit.SoftwareFeature

    /// A device control a capability writes.
    struct ControlUse: Equatable, Sendable, CustomStringConvertible {
        /// The control as the device reported it (range, flags, menu, current value).
        var control: V4L2ControlInfo
        /// The value that selects the mode (menus, booleans, buttons), or nil when the value
        /// varies over the control's range.
        var setting: Int64?

        /// The control's name as v4l2src's `extra-controls` takes it (today's v4l2-ctl spelling
        /// of whatever name the source gave).
        var name: String { V4L2ControlInfo.variableName(control.name) }

        /// "auto_exposure=1" or "exposure_time_absolute 3…2047 step 1".
        var description: String {
            if let setting { return "\(name)=\(setting)" }
            return "\(name) \(control.minimum)…\(control.maximum) step \(control.step)"
        }
    }

    /// How one capability is provided.
    enum Support: Equatable, Sendable, CustomStringConvertible {
        /// By the device, writing these controls in this order.
        case device([ControlUse])
        /// By CaptureKit, from the frames or in the pipeline.
        case software(SoftwareFeature)
        /// Not at all.
        case unsupported

        var isSupported: Bool { self != .unsupported }

        /// The controls used, empty unless `.device`.
        var uses: [ControlUse] {
            if case .device(let uses) = self { return uses }
            return []
        }

        /// "device(auto_exposure=1, exposure_time_absolute 3…2047 step 1)", "software(digitalZoom)",
        /// "unsupported".
        var description: String {
            switch self {
            case .device(let uses): "device(" + uses.map(\.description).joined(separator: ", ") + ")"
            case .software(let feature): "software(\(feature.rawValue))"
            case .unsupported: "unsupported"
            }
        }
    }

    /// The table the mapping was made from.
    let table: V4L2ControlTable
    /// Every capability's support.
    let supports: [Capability: Support]

    subscript(capability: Capability) -> Support { supports[capability] ?? .unsupported }

    /// The camera's own automatic switches.
    let automaticSwitches: V4L2AutomaticSwitches

    /// Maps `table` per SPEC.md's device-control table.
    init(_ table: V4L2ControlTable) {
        self.table = table
        let found = Found(table)
        var supports: [Capability: Support] = [:]
        for capability in Capability.allCases { supports[capability] = found.support(for: capability) }
        self.supports = supports
        automaticSwitches = V4L2AutomaticSwitches { found[$0] }
    }
}

// MARK: - Derived ranges

extension V4L2ControlMapping {
    /// The focus_absolute range, or nil without manual focus.
    var focusRange: ClosedRange<Int64>? { self[.lensPosition].control(.focusAbsolute).map { $0.minimum...$0.maximum } }

    /// AVFoundation's lensPosition (0 nearest … 1 farthest) for a focus_absolute value. V4L2
    /// defines larger focus_absolute values as closer, so the scale runs the other way.
    func lensPosition(forFocusValue value: Int64) -> Float? {
        guard let range = focusRange, range.upperBound > range.lowerBound else { return nil }
        return Float(range.upperBound - min(max(value, range.lowerBound), range.upperBound)) / Float(range.upperBound - range.lowerBound)
    }

    /// The focus_absolute value nearest `lensPosition` (clamped to 0…1) that the control's step allows.
    func focusValue(forLensPosition lensPosition: Float) -> Int64? {
        guard let control = self[.lensPosition].control(.focusAbsolute), let range = focusRange else { return nil }
        let position = Double(min(max(lensPosition, 0), 1))
        let raw = Double(range.upperBound) - position * Double(range.upperBound - range.lowerBound)
        return Self.snap(raw, to: control)
    }

    /// The exposure durations exposure_time_absolute allows (its unit is 100 µs).
    var exposureDurationRange: ClosedRange<CaptureTime>? {
        guard let control = self[.exposureDuration].control(.exposureTime) else { return nil }
        return Self.duration(control.minimum)...Self.duration(control.maximum)
    }

    /// An exposure_time_absolute value as a duration.
    static func duration(_ value: Int64) -> CaptureTime { CaptureTime(value: value, timescale: 10_000) }

    /// The ISO range: iso_sensitivity's own values, or the gain range mapped onto `gainISORange`.
    var isoRange: ClosedRange<Float>? {
        let uses = self[.iso].uses
        if let iso = uses.first(where: { Role.isoSensitivity.matches($0.control) })?.control {
            let values = iso.menu.compactMap(\.value)
            if iso.type == .intMenu, let low = values.min(), let high = values.max() { return Float(low)...Float(high) }
            return Float(iso.minimum)...Float(iso.maximum)
        }
        return uses.last.map { _ in Self.gainISORange }
    }

    /// The ISO a camera's gain range is presented as: UVC gain has no unit, so its minimum is
    /// taken as ISO 100 and its maximum as ISO 1600 (four stops), linear in between.
    static let gainISORange: ClosedRange<Float> = 100...1600

    /// The ISO for a gain value (cameras whose ISO is mapped onto gain).
    func iso(forGain gain: Int64) -> Float? {
        guard let control = gainControl, control.maximum > control.minimum else { return nil }
        let fraction = Float(min(max(gain, control.minimum), control.maximum) - control.minimum) / Float(control.maximum - control.minimum)
        return Self.gainISORange.lowerBound + fraction * (Self.gainISORange.upperBound - Self.gainISORange.lowerBound)
    }

    /// The gain value for an ISO (cameras whose ISO is mapped onto gain), on the control's step.
    func gain(forISO iso: Float) -> Int64? {
        guard let control = gainControl else { return nil }
        let range = Self.gainISORange
        let fraction = Double((min(max(iso, range.lowerBound), range.upperBound) - range.lowerBound) / (range.upperBound - range.lowerBound))
        return Self.snap(Double(control.minimum) + fraction * Double(control.maximum - control.minimum), to: control)
    }

    private var gainControl: V4L2ControlInfo? {
        self[.iso].uses.first { Role.gain.matches($0.control) || Role.analogueGain.matches($0.control) }?.control
    }

    /// The zoom factors zoom_absolute spans: value / minimum when the minimum is positive (UVC
    /// cameras count 100 = 1×), else 1 + (value − minimum) / 100. Nil without optical zoom.
    var zoomFactorRange: ClosedRange<Double>? {
        guard let control = self[.zoom].control(.zoomAbsolute) else { return nil }
        return Self.zoomFactor(control.minimum, of: control)...Self.zoomFactor(control.maximum, of: control)
    }

    static func zoomFactor(_ value: Int64, of control: V4L2ControlInfo) -> Double {
        control.minimum > 0 ? Double(value) / Double(control.minimum) : 1 + Double(value - control.minimum) / 100
    }

    /// The white_balance_temperature range in kelvin, when gains are set through it.
    var whiteBalanceTemperatureRange: ClosedRange<Int64>? {
        self[.whiteBalanceGains].control(.whiteBalanceTemperature).map { $0.minimum...$0.maximum }
    }

    /// The exposure target bias range in EV from auto_exposure_bias (0.001 EV units), or nil
    /// when there is none (the software loop's range applies).
    var exposureTargetBiasRange: ClosedRange<Float>? {
        guard let bias = self[.exposureTargetBias].control(.exposureBias) else { return nil }
        let values = bias.type == .intMenu ? bias.menu.compactMap(\.value) : [bias.minimum, bias.maximum]
        guard let low = values.min(), let high = values.max() else { return nil }
        return Float(low) / 1000...Float(high) / 1000
    }

    /// The intensity_torch_mode range, when the torch has levels.
    var torchLevelRange: ClosedRange<Int64>? {
        self[.torch].control(.torchIntensity).map { $0.minimum...$0.maximum }
    }

    /// `raw` rounded to the control's step from its minimum, within its range.
    static func snap(_ raw: Double, to control: V4L2ControlInfo) -> Int64 {
        let step = Double(max(control.step, 1))
        let snapped = Double(control.minimum) + ((raw - Double(control.minimum)) / step).rounded() * step
        return min(max(Int64(snapped), control.minimum), control.maximum)
    }
}

extension V4L2ControlMapping.Support {
    /// The control of `role` among the ones used.
    func control(_ role: V4L2ControlMapping.Role) -> V4L2ControlInfo? {
        uses.first { role.matches($0.control) }?.control
    }
}

// MARK: - Recognising controls

extension V4L2ControlMapping {
    /// A control the mapping looks for: its standard id and every name it has had.
    enum Role: CaseIterable, Sendable {
        case autoExposure, exposureTime, dynamicFramerate, focusAbsolute, focusAuto, zoomAbsolute
        case exposureBias, wideDynamicRange, isoSensitivity, isoSensitivityAuto, autoFocusStart, autoFocusRange
        case autoWhiteBalance, redBalance, blueBalance, gain, autoGain, analogueGain, whiteBalanceTemperature
        case backlightCompensation, ledMode, strobeSource, strobe, flashIntensity, torchIntensity

        /// The `V4L2_CID_*` value (linux/v4l2-controls.h).
        var id: UInt32 {
            switch self {
            case .autoExposure: 0x009a_0901 // V4L2_CID_EXPOSURE_AUTO
            case .exposureTime: 0x009a_0902 // V4L2_CID_EXPOSURE_ABSOLUTE
            case .dynamicFramerate: 0x009a_0903 // V4L2_CID_EXPOSURE_AUTO_PRIORITY
            case .focusAbsolute: 0x009a_090a // V4L2_CID_FOCUS_ABSOLUTE
            case .focusAuto: 0x009a_090c // V4L2_CID_FOCUS_AUTO
            case .zoomAbsolute: 0x009a_090d // V4L2_CID_ZOOM_ABSOLUTE
            case .exposureBias: 0x009a_0913 // V4L2_CID_AUTO_EXPOSURE_BIAS
            case .wideDynamicRange: 0x009a_0915 // V4L2_CID_WIDE_DYNAMIC_RANGE
            case .isoSensitivity: 0x009a_0917 // V4L2_CID_ISO_SENSITIVITY
            case .isoSensitivityAuto: 0x009a_0918 // V4L2_CID_ISO_SENSITIVITY_AUTO
            case .autoFocusStart: 0x009a_091c // V4L2_CID_AUTO_FOCUS_START
            case .autoFocusRange: 0x009a_091f // V4L2_CID_AUTO_FOCUS_RANGE
            case .autoWhiteBalance: 0x0098_090c // V4L2_CID_AUTO_WHITE_BALANCE
            case .redBalance: 0x0098_090e // V4L2_CID_RED_BALANCE
            case .blueBalance: 0x0098_090f // V4L2_CID_BLUE_BALANCE
            case .autoGain: 0x0098_0912 // V4L2_CID_AUTOGAIN
            case .gain: 0x0098_0913 // V4L2_CID_GAIN
            case .whiteBalanceTemperature: 0x0098_091a // V4L2_CID_WHITE_BALANCE_TEMPERATURE
            case .backlightCompensation: 0x0098_091c // V4L2_CID_BACKLIGHT_COMPENSATION
            case .analogueGain: 0x009e_0903 // V4L2_CID_ANALOGUE_GAIN
            case .ledMode: 0x009c_0901 // V4L2_CID_FLASH_LED_MODE
            case .strobeSource: 0x009c_0902 // V4L2_CID_FLASH_STROBE_SOURCE
            case .strobe: 0x009c_0903 // V4L2_CID_FLASH_STROBE
            case .flashIntensity: 0x009c_0907 // V4L2_CID_FLASH_INTENSITY
            case .torchIntensity: 0x009c_0908 // V4L2_CID_FLASH_TORCH_INTENSITY
            }
        }

        /// Today's kernel name first (v4l2-ctrls-defs.c), then older ones: uvcvideo's own names
        /// before it took the kernel's (uvc_ctrl.c: "Exposure, Auto", "Exposure (Absolute)",
        /// "Exposure, Auto Priority", "Focus (absolute)", "Focus, Auto", "White Balance
        /// Temperature, Auto", "White Balance Component, Auto", "White Balance Red/Blue
        /// Component") and the framework's before its 2021 renames, in v4l2-ctl's spelling.
        var names: [String] {
            switch self {
            case .autoExposure: ["auto_exposure", "exposure_auto"]
            case .exposureTime: ["exposure_time_absolute", "exposure_absolute"]
            case .dynamicFramerate: ["exposure_dynamic_framerate", "exposure_auto_priority"]
            case .focusAbsolute: ["focus_absolute"]
            case .focusAuto: ["focus_automatic_continuous", "focus_auto"]
            case .zoomAbsolute: ["zoom_absolute"]
            case .exposureBias: ["auto_exposure_bias"]
            case .wideDynamicRange: ["wide_dynamic_range"]
            case .isoSensitivity: ["iso_sensitivity"]
            case .isoSensitivityAuto: ["iso_sensitivity_auto"]
            case .autoFocusStart: ["auto_focus_start"]
            case .autoFocusRange: ["auto_focus_range"]
            case .autoWhiteBalance: ["white_balance_automatic", "white_balance_temperature_auto", "white_balance_component_auto", "auto_white_balance"]
            case .redBalance: ["red_balance", "white_balance_red_component"]
            case .blueBalance: ["blue_balance", "white_balance_blue_component"]
            case .autoGain: ["gain_automatic", "auto_gain", "autogain"]
            case .gain: ["gain"]
            case .whiteBalanceTemperature: ["white_balance_temperature"]
            case .backlightCompensation: ["backlight_compensation"]
            case .analogueGain: ["analogue_gain"]
            case .ledMode: ["led_mode"]
            case .strobeSource: ["strobe_source"]
            case .strobe: ["strobe"]
            case .flashIntensity: ["intensity_flash_mode"]
            case .torchIntensity: ["intensity_torch_mode"]
            }
        }

        /// Whether `control` is this role's control: by id, or by name in any spelling.
        func matches(_ control: V4L2ControlInfo) -> Bool {
            control.id == id || names.contains(V4L2ControlInfo.variableName(control.name))
        }

        /// `matches(_:)` for a control whose folded name (`V4L2ControlInfo.variableName`) is known.
        func matches(_ control: V4L2ControlInfo, folded name: String) -> Bool {
            control.id == id || names.contains(name)
        }
    }

    /// The table's controls by role, and the rules of SPEC.md's table over them.
    private struct Found {
        let controls: [Role: V4L2ControlInfo]

        init(_ table: V4L2ControlTable) {
            // Each name folded once, not once per role.
            let folded = table.controls.map { (control: $0, name: V4L2ControlInfo.variableName($0.name)) }
            var controls: [Role: V4L2ControlInfo] = [:]
            for role in Role.allCases {
                controls[role] = folded.first { role.matches($0.control, folded: $0.name) }?.control
            }
            self.controls = controls
        }

        subscript(role: Role) -> V4L2ControlInfo? { controls[role] }

        func use(_ role: Role, _ setting: Int64? = nil) -> ControlUse? {
            controls[role].map { ControlUse(control: $0, setting: setting) }
        }

        /// A menu value if the menu offers it; an unlisted menu (`v4l2-ctl -l`) is taken to offer
        /// every value in its range.
        func offers(_ role: Role, _ value: Int64) -> Bool {
            guard let control = controls[role], (control.minimum...control.maximum).contains(value) else { return false }
            return control.menu.isEmpty || control.menuItem(at: value) != nil
        }

        /// auto_exposure's automatic mode: aperture priority (3, what UVC cameras offer), else
        /// auto (0), else shutter priority (2).
        var autoExposureSetting: Int64? { [3, 0, 2].first { offers(.autoExposure, $0) } }

        /// The controls that make ISO: iso_sensitivity (with its auto switch off), else gain
        /// (with automatic gain off), else analogue_gain.
        var isoUses: [ControlUse]? {
            if let iso = use(.isoSensitivity) { return [use(.isoSensitivityAuto, 0), iso].compactMap { $0 } }
            if let gain = use(.gain) { return [use(.autoGain, 0), gain].compactMap { $0 } }
            if let gain = use(.analogueGain) { return [gain] }
            return nil
        }

        /// Whether a software exposure loop has something to drive.
        var canRunExposureLoop: Bool { self[.exposureTime] != nil || isoUses != nil }

        /// The controls that set white-balance gains: red/blue balance, else the temperature
        /// (through the gains ⇄ temperature conversion), with automatic white balance off.
        var gainUses: [ControlUse]? {
            let off = use(.autoWhiteBalance, 0)
            if let red = use(.redBalance), let blue = use(.blueBalance) { return [off, red, blue].compactMap { $0 } }
            if let temperature = use(.whiteBalanceTemperature) { return [off, temperature].compactMap { $0 } }
            return nil
        }

        func support(for capability: Capability) -> Support {
            switch capability {
            // Focus
            case .focusContinuous:
                if let auto = use(.focusAuto, 1) { return .device([auto]) }
                return self[.focusAbsolute] != nil ? .software(.contrastDetectAutoFocus) : .unsupported
            case .focusAutoOnce:
                if let start = use(.autoFocusStart, 1) { return .device([use(.focusAuto, 0), start].compactMap { $0 }) }
                return self[.focusAbsolute] != nil ? .software(.contrastDetectAutoFocus) : .unsupported
            case .focusLocked, .lensPosition:
                if let absolute = use(.focusAbsolute) { return .device([use(.focusAuto, 0), absolute].compactMap { $0 }) }
                if capability == .focusLocked, let auto = use(.focusAuto, 0) { return .device([auto]) }
                return .unsupported
            case .autoFocusRangeRestriction:
                return use(.autoFocusRange).map { .device([$0]) } ?? .unsupported
            case .smoothAutoFocus:
                return self[.focusAbsolute] != nil ? .software(.lensMoveSmoothing) : .unsupported

            // Exposure
            case .exposureContinuous:
                if let setting = autoExposureSetting, let auto = use(.autoExposure, setting) { return .device([auto]) }
                return canRunExposureLoop ? .software(.exposureLoop) : .unsupported
            case .exposureLocked:
                if offers(.autoExposure, 1), let manual = use(.autoExposure, 1) { return .device([manual]) }
                return canRunExposureLoop ? .software(.exposureLoop) : .unsupported
            case .exposureCustom:
                guard let time = use(.exposureTime) else { return .unsupported }
                let manual = offers(.autoExposure, 1) ? use(.autoExposure, 1) : nil
                return .device([manual, time].compactMap { $0 } + (isoUses ?? []))
            case .exposureDuration:
                guard let time = use(.exposureTime) else { return .unsupported }
                let manual = offers(.autoExposure, 1) ? use(.autoExposure, 1) : nil
                return .device([manual, time].compactMap { $0 })
            case .iso:
                return isoUses.map { .device($0) } ?? .unsupported
            case .exposureTargetBias:
                if let bias = use(.exposureBias) { return .device([bias]) }
                return canRunExposureLoop ? .software(.exposureLoop) : .unsupported
            case .exposureTargetOffset:
                return .software(.exposureMetering)

            // White balance
            case .whiteBalanceContinuous:
                if let auto = use(.autoWhiteBalance, 1) { return .device([auto]) }
                return gainUses != nil ? .software(.grayWorld) : .unsupported
            case .whiteBalanceLocked:
                if let auto = use(.autoWhiteBalance, 0) { return .device([auto]) }
                return gainUses != nil ? .software(.grayWorld) : .unsupported
            case .whiteBalanceGains:
                return gainUses.map { .device($0) } ?? .unsupported
            case .grayWorldGains:
                return .software(.grayWorld)

            // Zoom, torch, flash
            case .zoom:
                return use(.zoomAbsolute).map { .device([$0]) } ?? .software(.digitalZoom)
            case .torch:
                // led_mode 2 is "Torch"; intensity_torch_mode sets its level.
                let mode = offers(.ledMode, 2) ? use(.ledMode, 2) : nil
                let uses = [mode, use(.torchIntensity)].compactMap { $0 }
                return uses.isEmpty ? .unsupported : .device(uses)
            case .flash:
                // led_mode 1 is "Flash", strobe_source 0 "Software"; the strobe button fires it.
                guard offers(.ledMode, 1), let mode = use(.ledMode, 1), let strobe = use(.strobe, 1) else { return .unsupported }
                let source = offers(.strobeSource, 0) ? use(.strobeSource, 0) : nil
                return .device([mode, source, use(.flashIntensity), strobe].compactMap { $0 })

            // Low light, HDR, subject area
            case .lowLightBoost:
                if let dynamic = use(.dynamicFramerate, 1) { return .device([dynamic]) }
                if let backlight = self[.backlightCompensation] { return .device([ControlUse(control: backlight, setting: backlight.maximum)]) }
                return .unsupported
            case .videoHDR:
                return use(.wideDynamicRange, 1).map { .device([$0]) } ?? .unsupported
            case .subjectAreaChangeMonitoring:
                return .software(.subjectAreaChangeDetector)
            }
        }
    }
}
