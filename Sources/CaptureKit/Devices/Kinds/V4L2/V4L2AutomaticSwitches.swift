import CaptureKitV4L2

/// A V4L2 camera's own automatic switches, by what they adjust: while one is on, the camera
/// moves the values it governs by itself, whoever turned it on (CaptureKit for a continuous
/// mode the camera provides, `setV4L2Control`, another program).
struct V4L2AutomaticSwitches: Sendable, Equatable {
    /// auto_exposure (on unless 1, manual), automatic gain, automatic ISO.
    var exposure: [V4L2ControlInfo]
    /// Continuous autofocus.
    var focus: [V4L2ControlInfo]
    /// Automatic white balance.
    var whiteBalance: [V4L2ControlInfo]

    init(_ controls: (V4L2ControlMapping.Role) -> V4L2ControlInfo?) {
        exposure = [controls(.autoExposure), controls(.autoGain), controls(.isoSensitivityAuto)].compactMap { $0 }
        focus = [controls(.focusAuto)].compactMap { $0 }
        whiteBalance = [controls(.autoWhiteBalance)].compactMap { $0 }
    }

    var all: [V4L2ControlInfo] { exposure + focus + whiteBalance }

    /// Whether any of `switches` is on in `values` (by control id).
    static func anyOn(_ switches: [V4L2ControlInfo], in values: [UInt32: Int64]) -> Bool {
        switches.contains { control in
            guard let value = values[control.id] else { return false }
            return V4L2ControlMapping.Role.autoExposure.matches(control) ? value != 1 : value != 0
        }
    }
}
