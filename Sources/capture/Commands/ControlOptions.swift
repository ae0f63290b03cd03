import ArgumentParser
import CaptureKit

/// Device controls a command can set before capturing (`capture snap`).
struct ControlOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "ISO (custom exposure), e.g. 400.")
    var iso: Float?

    @Option(parsing: .unconditional, help: "Exposure duration (custom exposure): 1/60 or seconds, e.g. 0.02.")
    var shutter: ShutterSpeed?

    @Option(parsing: .unconditional, help: "Lens position 0.0 (near) - 1.0 (far); locks focus there.")
    var lens: Float?

    @Option(help: "Focus mode: auto | continuous | locked.")
    var focus: FocusOption?

    @Option(parsing: .unconditional, help: "Zoom factor, e.g. 2 (digital zoom where the camera has no optical zoom).")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Torch level 0.0-1.0 (0 turns it off).")
    var torch: Float?

    @Option(parsing: .unconditional, help: "Exposure target bias in EV, e.g. --ev -1 or --ev 0.5 (auto exposure aims that much brighter).")
    var ev: Float?

    @Option(help: "Flash: on | off | auto (auto fires when the scene is too dark).")
    var flash: FlashOption?

    @Option(parsing: .unconditional, help: "White balance: auto, or TEMPERATURE[:TINT] in kelvin, e.g. 3200 or 5000:10 (locks the gains).")
    var wb: WhiteBalanceOption?

    /// The options as CaptureKit's control settings.
    var settings: CaptureDevice.ControlSettings {
        let focusMode: CaptureDevice.FocusMode? = switch focus {
        case .auto?: .autoFocus
        case .continuous?: .continuousAutoFocus
        case .locked?: .locked
        case nil: nil
        }
        let whiteBalance: CaptureDevice.ControlSettings.WhiteBalance? = switch wb {
        case .auto?: .auto
        case .temperature(let kelvin, let tint)?: .temperature(kelvin, tint: tint)
        case nil: nil
        }
        let flashMode: CaptureDevice.FlashMode? = switch flash {
        case .on?: .on
        case .off?: .off
        case .auto?: .auto
        case nil: nil
        }
        return .init(iso: iso, exposureDuration: shutter?.time, lensPosition: lens, focusMode: focusMode,
                     zoomFactor: zoom, torchLevel: torch, whiteBalance: whiteBalance, exposureTargetBias: ev, flashMode: flashMode)
    }

    /// Applies the controls under the device's configuration lock; unsupported ones and values
    /// out of range fail with CaptureKit's error, which names the value and the valid range.
    func apply(to device: CaptureDevice) throws(CaptureError) {
        try device.apply(settings)
    }
}

/// `--focus` values.
enum FocusOption: String, ExpressibleByArgument, CaseIterable {
    case auto, continuous, locked
}

/// `--flash` values.
enum FlashOption: String, ExpressibleByArgument, CaseIterable {
    case on, off, auto
}

/// `--shutter 1/60` or `--shutter 0.02`.
struct ShutterSpeed: ExpressibleByArgument {
    var time: CaptureTime

    init?(argument: String) {
        let parts = argument.split(separator: "/")
        if parts.count == 2, let numerator = Int64(parts[0]), let denominator = Int32(parts[1]), numerator > 0, denominator > 0 {
            time = CaptureTime(value: numerator, timescale: denominator)
        } else if parts.count == 1, let seconds = Double(argument), seconds > 0 {
            time = CaptureTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
        } else {
            return nil
        }
    }
}

/// `--wb auto` or `--wb 3200[:TINT]`.
enum WhiteBalanceOption: ExpressibleByArgument {
    case auto
    case temperature(Float, tint: Float)

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
            return
        }
        let parts = argument.split(separator: ":").map { Float($0) }
        guard (1...2).contains(parts.count), let temperature = parts[0], temperature > 0 else { return nil }
        let tint = parts.count == 2 ? parts[1] : 0
        guard let tint else { return nil }
        self = .temperature(temperature, tint: tint)
    }
}
