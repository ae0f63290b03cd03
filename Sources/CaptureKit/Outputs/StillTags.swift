import Foundation
import GStreamerSwift

/// The GStreamer tags a still carries, which `jifmux` writes as EXIF.
enum StillTags {
    /// The serialized tag list for a still: orientation (EXIF Orientation), make and model,
    /// capture time (DateTimeOriginal) and the writing software.
    static func serialized(orientation: VideoOrientation, mirrored: Bool, device: CaptureDevice?, date: Date) -> String {
        var fields = ["image-orientation=(string)\(orientation.imageOrientationTag(mirrored: mirrored))"]
        if let device {
            fields.append("device-manufacturer=(string)\(quoted(device.manufacturer))")
            fields.append("device-model=(string)\(quoted(modelName(device)))")
            fields += exposureFields(device)
            fields += flashFields(device)
        }
        fields.append("datetime=(datetime)\(timestamp(date))")
        fields.append("application-name=(string)CaptureKit")
        return "taglist, " + fields.joined(separator: ", ")
    }

    /// ExposureTime, ISO, FNumber, exposure mode, zoom and white balance mode, where the device knows them (the virtual
    /// camera always does; V4L2 cameras once their exposure controls are read).
    static func exposureFields(_ device: CaptureDevice) -> [String] {
        guard device.source == .virtual else { return [] }
        let exposure = device.readState { $0.exposure }
        let (duration, iso, bias) = exposure.effective
        return [
            "capturing-shutter-speed=(fraction)\(duration.value)/\(duration.timescale)",
            "capturing-iso-speed=(int)\(Int(iso.rounded()))",
            "capturing-exposure-compensation=(double)\(bias)",
            "capturing-focal-ratio=(double)\(device.lensAperture)",
            "capturing-exposure-mode=(string)" + (exposure.mode == .custom || exposure.mode == .locked ? "manual-exposure" : "auto-exposure"),
            "capturing-digital-zoom-ratio=(double)\(device.videoZoomFactor)",
            "capturing-white-balance=(string)" + (device.whiteBalanceMode == .locked ? "manual" : "auto"),
        ]
    }

    /// EXIF Flash: whether it fired for this still, and the mode ("always", "never", "auto").
    static func flashFields(_ device: CaptureDevice) -> [String] {
        guard device.hasFlash else { return ["capturing-flash-fired=(boolean)false"] }
        let flash = device.readState { $0.flash }
        let mode = switch flash.mode {
        case .off: "never"
        case .on: "always"
        case .auto: "auto"
        }
        return ["capturing-flash-fired=(boolean)\(flash.isFiring)", "capturing-flash-mode=(string)\(mode)"]
    }

    /// The EXIF Model: the virtual camera's model name, or the device's name.
    static func modelName(_ device: CaptureDevice) -> String {
        device.source == .virtual ? VirtualCamera.model : device.localizedName
    }

    /// Local time with its UTC offset, as GStreamer's datetime parser reads it
    /// ("2026-11-22T10:00:00+01:00"). Formatted with libc: Foundation's DateFormatter costs
    /// ~17 ms of ICU set-up on first use, which a one-shot `capture snap` would pay.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let offset = parts.tm_gmtoff / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(Int(parts.tm_mon) + 1))-\(two(Int(parts.tm_mday)))T"
            + "\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec)))"
            + (offset < 0 ? "-" : "+") + "\(two(abs(offset) / 60)):\(two(abs(offset) % 60))"
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Width and height from JPEG caps.
    static func jpegSize(_ caps: String?) -> (Int, Int) {
        guard let caps, let structure = try? CapsStructure.parse(caps: caps).first,
              case .int(let width)? = structure.fields["width"], case .int(let height)? = structure.fields["height"] else {
            return (0, 0)
        }
        return (width, height)
    }
}
