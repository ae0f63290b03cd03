import ArgumentParser
import CaptureKit

/// `--set NAME=VALUE`: a control by the name `capture controls --json` gives it (AVFoundation's
/// property name), by its `capture snap` option name, or a V4L2 control by its `v4l2-ctl` name.
struct ControlSetting: ExpressibleByArgument {
    /// What a setting changes, its value parsed.
    enum Change {
        case focusMode(CaptureDevice.FocusMode)
        case lensPosition(Float)
        case exposureMode(CaptureDevice.ExposureMode)
        case exposureDuration(CaptureTime)
        case iso(Float)
        case exposureTargetBias(Float)
        case whiteBalanceMode(CaptureDevice.WhiteBalanceMode)
        case deviceWhiteBalanceGains(CaptureDevice.WhiteBalanceGains)
        /// Locks the gains for a temperature; a nil tint keeps the current one.
        case temperature(Float, tint: Float?)
        case tint(Float)
        case videoZoomFactor(Double)
        case torchMode(CaptureDevice.TorchMode)
        /// 0 turns the torch off.
        case torchLevel(Float)
        case flashMode(CaptureDevice.FlashMode)
        case v4l2(name: String, value: Int64)
    }

    /// The names `capture controls --json` prints, which `--set` takes.
    static let propertyNames = ["focusMode", "lensPosition", "exposureMode", "exposureDuration", "iso", "exposureTargetBias",
                                "whiteBalanceMode", "deviceWhiteBalanceGains", "temperature", "tint", "videoZoomFactor",
                                "torchMode", "torchLevel", "flashMode"]
    /// `capture snap`'s option names, taken with that option's syntax.
    static let optionNames = ["shutter", "lens", "focus", "zoom", "torch", "wb", "ev", "flash"]

    var name: String
    var value: String

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        name = parts[0]
        value = parts[1]
    }

    static var allValueStrings: [String] { (propertyNames + optionNames).map { "\($0)=VALUE" } }

    /// The change this setting asks for; a ValidationError names the value and what would be valid.
    func change() throws -> Change {
        func number<T: LosslessStringConvertible & BinaryFloatingPoint>(_: T.Type) throws -> T {
            guard let parsed = T(value), parsed.isFinite else { throw invalid("a number") }
            return parsed
        }
        func mode<T: CaseIterable>(_: T.Type, aliases: [String: T] = [:]) throws -> T {
            if let alias = aliases[value] { return alias }
            guard let mode = T.allCases.first(where: { String(describing: $0) == value }) else {
                throw invalid("one of " + (T.allCases.map { String(describing: $0) } + aliases.keys.sorted()).joined(separator: ", "))
            }
            return mode
        }
        switch name {
        case "focusMode", "focus":
            return .focusMode(try mode(CaptureDevice.FocusMode.self, aliases: ["auto": .autoFocus, "continuous": .continuousAutoFocus]))
        case "lensPosition", "lens": return .lensPosition(try number(Float.self))
        case "exposureMode": return .exposureMode(try mode(CaptureDevice.ExposureMode.self))
        case "exposureDuration", "shutter":
            guard let shutter = ShutterSpeed(argument: value) else { throw invalid("seconds, e.g. 0.01, or a fraction, e.g. 1/60") }
            return .exposureDuration(shutter.time)
        case "iso": return .iso(try number(Float.self))
        case "exposureTargetBias", "ev": return .exposureTargetBias(try number(Float.self))
        case "whiteBalanceMode": return .whiteBalanceMode(try mode(CaptureDevice.WhiteBalanceMode.self))
        case "deviceWhiteBalanceGains":
            let gains = value.split(separator: ",").compactMap { Float($0) }
            guard gains.count == 3 else { throw invalid("three gains red,green,blue, e.g. 1.5,1,2") }
            return .deviceWhiteBalanceGains(.init(redGain: gains[0], greenGain: gains[1], blueGain: gains[2]))
        case "temperature": return .temperature(try number(Float.self), tint: nil)
        case "tint": return .tint(try number(Float.self))
        case "wb":
            switch WhiteBalanceOption(argument: value) {
            case .auto?: return .whiteBalanceMode(.continuousAutoWhiteBalance)
            case .temperature(let kelvin, let tint)?: return .temperature(kelvin, tint: tint)
            case nil: throw invalid("auto, or a temperature in kelvin with an optional tint, e.g. 3200 or 5000:10")
            }
        case "videoZoomFactor", "zoom": return .videoZoomFactor(try number(Double.self))
        case "torchMode": return .torchMode(try mode(CaptureDevice.TorchMode.self))
        case "torchLevel", "torch": return .torchLevel(try number(Float.self))
        case "flashMode", "flash": return .flashMode(try mode(CaptureDevice.FlashMode.self))
        default:
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), let raw = Int64(value) else {
                throw ValidationError("--set \(name)=\(value): '\(name)' is none of " + (Self.propertyNames + Self.optionNames).joined(separator: ", ")
                                      + "; a V4L2 control (names in 'capture controls') takes an integer value")
            }
            return .v4l2(name: name, value: raw)
        }
    }

    private func invalid(_ expected: String) -> ValidationError {
        ValidationError("--set \(name)=\(value): '\(value)' is not a valid \(name); use \(expected)")
    }
}

extension ControlSetting.Change {
    /// Makes the change with AVFoundation's calls; the caller holds the configuration lock.
    /// Unsupported modes and values out of range throw CaptureKit's error, which names them.
    func apply(to device: CaptureDevice) throws(CaptureError) {
        switch self {
        case .focusMode(let mode): try device.setFocusMode(mode)
        case .lensPosition(let position): try device.checked.setFocusModeLocked(lensPosition: position)
        case .exposureMode(let mode): try device.setExposureMode(mode)
        case .exposureDuration(let duration): try device.checked.setExposureModeCustom(duration: duration, iso: CaptureDevice.currentISO)
        case .iso(let iso): try device.checked.setExposureModeCustom(duration: CaptureDevice.currentExposureDuration, iso: iso)
        case .exposureTargetBias(let bias): try device.checked.setExposureTargetBias(bias)
        case .whiteBalanceMode(let mode): try device.setWhiteBalanceMode(mode)
        case .deviceWhiteBalanceGains(let gains): try device.checked.setWhiteBalanceModeLocked(with: gains)
        case .temperature(let temperature, let tint):
            let current = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
            try lockWhiteBalance(of: device, at: .init(temperature: temperature, tint: tint ?? current.tint))
        case .tint(let tint):
            let current = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
            try lockWhiteBalance(of: device, at: .init(temperature: current.temperature, tint: tint))
        case .videoZoomFactor(let factor): try device.setVideoZoomFactor(factor)
        case .torchMode(let mode): try device.setTorchMode(mode)
        case .torchLevel(let level): if level == 0 { try device.setTorchMode(.off) } else { try device.setTorchModeOn(level: level) }
        case .flashMode(let mode): try device.setFlashMode(mode)
        case .v4l2(let name, let value): try device.setV4L2Control(name, to: value)
        }
    }

    private func lockWhiteBalance(of device: CaptureDevice, at values: CaptureDevice.WhiteBalanceTemperatureAndTintValues) throws(CaptureError) {
        try device.checked.setWhiteBalanceModeLocked(with: device.deviceWhiteBalanceGains(for: values))
    }
}
