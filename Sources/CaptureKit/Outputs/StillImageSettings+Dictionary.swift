import Foundation

extension StillImageSettings {
    /// The settings in AVFoundation's dictionary form: `[VideoCodecKey: VideoCodecType.jpeg,
    /// VideoCompressionPropertiesKey: [VideoQualityKey: quality]]` for JPEG, or
    /// `[kCVPixelBufferPixelFormatTypeKey: code]` for uncompressed stills (the code says the range:
    /// '420v' or '420f').
    public var dictionary: [String: Any] {
        switch self {
        case .jpeg(let quality):
            [VideoCodecKey: VideoCodecType.jpeg, VideoCompressionPropertiesKey: [VideoQualityKey: NSNumber(value: quality)]]
        case .uncompressed(let format, let range):
            [kCVPixelBufferPixelFormatTypeKey: NSNumber(value: format.cvPixelFormatType(range: range))]
        }
    }

    /// Settings from AVFoundation's dictionary form (see ``dictionary``); JPEG at 0.85 when the
    /// quality is not given. Throws `invalidSetting` naming an unknown key, codec or pixel format.
    public init(dictionary: [String: Any]) throws(CaptureError) {
        try SettingsValue.checkKeys(dictionary, known: [VideoCodecKey, VideoCompressionPropertiesKey, kCVPixelBufferPixelFormatTypeKey],
                                    name: "still image settings")
        if let value = dictionary[kCVPixelBufferPixelFormatTypeKey] {
            guard dictionary[VideoCodecKey] == nil else {
                throw .invalidSetting(name: "still image settings", value: "\(VideoCodecKey) with \(kCVPixelBufferPixelFormatTypeKey)", valid: "one of them")
            }
            guard let code = SettingsValue.integer(value), let (format, range) = PixelFormat.from(cvPixelFormatType: OSType(truncatingIfNeeded: code)) else {
                throw .invalidSetting(name: "still pixel format type", value: SettingsValue.integer(value).map(SettingsValue.fourCC) ?? "\(value)",
                                      valid: "'BGRA', '420v', '420f', 'y420', 'f420'")
            }
            self = .uncompressed(format, range: range ?? .video)
            return
        }
        let codec = dictionary[VideoCodecKey]
        guard codec == nil || (codec as? VideoCodecType) == .jpeg || (codec as? String).flatMap(VideoCodecType.init(fourCharacterCode:)) == .jpeg else {
            throw .invalidSetting(name: "still codec", value: "\(codec!)", valid: "VideoCodecType.jpeg")
        }
        let properties = dictionary[VideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        try SettingsValue.checkKeys(properties, known: [VideoQualityKey], name: "still compression properties")
        self = .jpeg(quality: SettingsValue.double(properties[VideoQualityKey]) ?? 0.85)
    }
}
