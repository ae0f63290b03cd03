import Foundation

// AVFoundation's settings-dictionary keys (AVVideoSettings.h) with `AV` dropped. Video-data and
// still-image outputs take their settings as such a dictionary beside the typed settings.

/// The codec of compressed output: a ``VideoCodecType`` (AVVideoCodecKey).
public let VideoCodecKey = "AVVideoCodecKey"
/// A dictionary of compression properties (AVVideoCompressionPropertiesKey).
public let VideoCompressionPropertiesKey = "AVVideoCompressionPropertiesKey"
/// Average bits per second, in the compression properties (AVVideoAverageBitRateKey).
public let VideoAverageBitRateKey = "AVVideoAverageBitRateKey"
/// Most frames between key frames, in the compression properties (AVVideoMaxKeyFrameIntervalKey).
public let VideoMaxKeyFrameIntervalKey = "AVVideoMaxKeyFrameIntervalKey"
/// The H.264 profile, in the compression properties: an ``H264Profile`` raw value (AVVideoProfileLevelKey).
public let VideoProfileLevelKey = "AVVideoProfileLevelKey"
/// JPEG quality 0.0 … 1.0, in the compression properties (AVVideoQualityKey).
public let VideoQualityKey = "AVVideoQualityKey"

/// Reads numbers from settings dictionaries, whatever numeric type (or `NSNumber`) they were given as.
enum SettingsValue {
    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let number as Int: number
        case let number as UInt32: Int(number)
        case let number as Int32: Int(number)
        case let number as Int64: Int(exactly: number)
        case let number as UInt: Int(exactly: number)
        case let number as Double: Int(exactly: number)
        case let number as NSNumber: number.intValue
        default: nil
        }
    }

    static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Float: Double(number)
        case let number as NSNumber: number.doubleValue
        default: integer(value).map(Double.init)
        }
    }

    /// The four characters of a pixel-format code, for errors ('BGRA'), or its number.
    static func fourCC(_ code: Int) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (24 - 8 * $0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "\(code)" }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    /// Throws `invalidSetting` for the first key outside `known`.
    static func checkKeys(_ dictionary: [String: Any], known: [String], name: String) throws(CaptureError) {
        if let key = dictionary.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidSetting(name: "\(name) key", value: key, valid: known.joined(separator: ", "))
        }
    }
}

extension VideoCodecType {
    /// The codec AVFoundation's string names: "avc1" (AVVideoCodecType.h264), "jpeg", or CaptureKit's raw values.
    init?(fourCharacterCode: String) {
        switch fourCharacterCode {
        case "avc1", "h264": self = .h264
        case "jpeg": self = .jpeg
        default: return nil
        }
    }
}
