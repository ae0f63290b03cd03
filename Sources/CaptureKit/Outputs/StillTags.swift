import Foundation
import GStreamerSwift

/// The GStreamer tags a still carries, which `jifmux` writes as EXIF.
enum StillTags {
    /// The serialized tag list for a still's metadata: orientation (EXIF Orientation), make and
    /// model, exposure, white balance, zoom and flash where known, capture time
    /// (DateTimeOriginal) and the writing software.
    static func serialized(_ metadata: StillMetadata) -> String {
        var fields = ["image-orientation=(string)\(imageOrientationTag(exif: metadata.exifOrientation))"]
        if let make = metadata.make { fields.append("device-manufacturer=(string)\(quoted(make))") }
        if let model = metadata.model { fields.append("device-model=(string)\(quoted(model))") }
        if let duration = metadata.exposureDuration, duration.isNumeric {
            fields.append("capturing-shutter-speed=(fraction)\(duration.value)/\(duration.timescale)")
        }
        if let iso = metadata.iso { fields.append("capturing-iso-speed=(int)\(Int(iso.rounded()))") }
        if let bias = metadata.exposureBias { fields.append("capturing-exposure-compensation=(double)\(bias)") }
        if let fNumber = metadata.fNumber, fNumber > 0 { fields.append("capturing-focal-ratio=(double)\(fNumber)") }
        if let manual = metadata.isExposureManual {
            fields.append("capturing-exposure-mode=(string)" + (manual ? "manual-exposure" : "auto-exposure"))
        }
        if let zoom = metadata.digitalZoomRatio { fields.append("capturing-digital-zoom-ratio=(double)\(zoom)") }
        if let manual = metadata.isWhiteBalanceManual { fields.append("capturing-white-balance=(string)" + (manual ? "manual" : "auto")) }
        fields.append("capturing-flash-fired=(boolean)\(metadata.isFlashFired)")
        if let mode = metadata.flashMode {
            fields.append("capturing-flash-mode=(string)" + (mode == .on ? "always" : mode == .auto ? "auto" : "never"))
        }
        fields.append("datetime=(datetime)\(timestamp(metadata.date))")
        fields.append("application-name=(string)CaptureKit")
        return "taglist, " + fields.joined(separator: ", ")
    }

    /// GStreamer's `image-orientation` tag for an EXIF Orientation (1–8).
    static func imageOrientationTag(exif: Int) -> String {
        ["rotate-0", "flip-rotate-0", "rotate-180", "flip-rotate-180", "flip-rotate-270", "rotate-90", "flip-rotate-90", "rotate-270"][
            min(max(exif, 1), 8) - 1]
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
