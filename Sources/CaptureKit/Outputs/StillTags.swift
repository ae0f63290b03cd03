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
        }
        fields.append("datetime=(datetime)\(timestamp(date))")
        fields.append("application-name=(string)CaptureKit")
        return "taglist, " + fields.joined(separator: ", ")
    }

    /// The EXIF Model: the virtual camera's model name, or the device's name.
    static func modelName(_ device: CaptureDevice) -> String {
        device.source == .virtual ? VirtualCamera.model : device.localizedName
    }

    /// Local time with offset, as GStreamer's datetime parser reads it.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter.string(from: date)
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
